// expect: exception
import fs from "fs";
return typeof fs;
