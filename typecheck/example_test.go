package typecheck_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/runcode-dev/runcode/typecheck"
)

// Checking a program against the SDK's declarations before it runs. New needs a TypeScript
// compiler (tsc of TypeScript 5 or later) on PATH; without one it fails with ErrNoCompiler.
// (Not run by go test, since the compiler is an external program.)
func Example() {
	chk, err := typecheck.New(typecheck.Options{})
	if errors.Is(err, typecheck.ErrNoCompiler) {
		log.Fatal(err) // its message says how to install TypeScript
	}
	defer chk.Close()
	sdk := `declare const tools: { add(args: { a: number; b: number }): Promise<number> };`
	diags, err := chk.Check(context.Background(), sdk, `const s: string = await tools.add({ a: 1, b: 2 }); return s;`)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range diags {
		fmt.Println(d) // 1:7: error TS2322: Type 'number' is not assignable to type 'string'.
	}
}

// What `tsc -p DIR --pretty false` printed for a project written by WriteProject (runcode
// init), read back as diagnostics at the program's own lines.
func ExampleParseOutput() {
	out := "main.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'.\n"
	diags, other := typecheck.ParseOutput(out)
	for _, d := range diags {
		fmt.Println(d.Line, d.Column, d.Code, d.Message)
	}
	fmt.Println(len(other), "lines outside any file")
	// Output:
	// 2 7 2322 Type 'number' is not assignable to type 'string'.
	// 0 lines outside any file
}
