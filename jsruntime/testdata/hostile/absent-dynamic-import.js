// expect: exception
return await import("fs");
