package codemode_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/registry"
)

type Query struct {
	Name string `json:"name" description:"Product name."`
}

type Product struct {
	Stock int      `json:"stock"`
	Tags  []string `json:"tags"` // a nil slice crosses as [] (declared string[], not string[] | null)
}

var products = map[string]Product{"apple": {Stock: 12, Tags: []string{"fruit"}}, "pear": {}}

func getProduct(_ context.Context, _ *registry.Invocation, q Query) (Product, error) {
	if p, ok := products[q.Name]; ok {
		return p, nil
	}
	return Product{}, fmt.Errorf("no product named %q", q.Name)
}

func listProducts(context.Context, *registry.Invocation, struct{}) ([]string, error) {
	return []string{"apple", "pear"}, nil
}

// Two tools typed with Go structs, Code Mode installed beside them, and one program that calls
// both: only what it prints and returns reaches the model (the setup of examples/embed and of
// the README's "Embedding from Go" and docs/embedding.md).
func Example() {
	reg := registry.New()
	reg.Register(registry.MustDefine(registry.TypedTool[Query, Product]{Name: "get_product", Description: "Get one product.", Execute: getProduct}),
		registry.MustDefine(registry.TypedTool[struct{}, []string]{Name: "list_products", Description: "List the product names.", Execute: listProducts}))
	cm, err := codemode.New(reg, codemode.Options{})
	if err != nil {
		panic(err)
	}
	defer cm.Close()
	reg.SetDefaultPresentation(registry.PresentCode)
	prompt, _ := cm.Prompt(nil)
	out, _ := cm.Run(context.Background(), codemode.Program{Description: "Report stock", Code: `
for (const name of await tools.list_products({})) {
  const p = await tools.get_product({ name });
  console.log(name + ": " + p.stock + " in stock, " + p.tags.length + " tags");
}
try { await tools.get_product({ name: "kiwi" }); } catch (e) { return e.message; }`})

	fmt.Println(strings.Contains(prompt, "get_product(args: { /** Product name. */ name: string }): Promise<{ stock: number; tags: string[] }>;"))
	fmt.Println(out.Text)
	fmt.Println(out.Logs, out.Value, out.Failure == nil)
	// Output:
	// true
	// apple: 12 in stock, 1 tags
	// pear: 0 in stock, 0 tags
	// no product named "kiwi"
	// [apple: 12 in stock, 1 tags pear: 0 in stock, 0 tags] "no product named \"kiwi\"" true
}

// A program that throws is an Outcome with a typed Failure, not an error of Run.
func ExampleCodeMode_Run_failure() {
	cm, err := codemode.New(registry.New(), codemode.Options{})
	if err != nil {
		panic(err)
	}
	defer cm.Close()
	cm.Registry().SetDefaultPresentation(registry.PresentCode)
	out, err := cm.Run(context.Background(), codemode.Program{Code: `console.log("about to fail"); throw new RangeError("too far")`})
	fmt.Println(err, out.Failure.Kind == codemode.KindException, out.Logs)
	fmt.Println(out.Text)
	// Output:
	// <nil> true [about to fail]
	// Error: code run failed (exception): RangeError: too far
	// 	at main.ts:1:37(8)
	// Captured output:
	// about to fail
}

// Per-call hooks travel in the context, as net/http/httptrace's do: this trace sees the
// sub-calls and console lines of this run only.
func ExampleWithRunTrace() {
	reg := registry.New()
	reg.Register(registry.MustDefine(registry.TypedTool[struct{}, []string]{Name: "list_products", Description: "List the product names.", Execute: listProducts}))
	cm, err := codemode.New(reg, codemode.Options{})
	if err != nil {
		panic(err)
	}
	defer cm.Close()
	reg.SetDefaultPresentation(registry.PresentCode)
	ctx := codemode.WithRunTrace(context.Background(), &codemode.RunTrace{
		OnEvent: func(e bridge.Event) { fmt.Println("event:", e.Type, e.Name) },
		OnLog:   func(line string) { fmt.Println("log:", line) },
	})
	cm.Run(ctx, codemode.Program{Code: `console.log("listing"); return (await tools.list_products({})).length`})
	// Output:
	// log: listing
	// event: code-dispatch-start list_products
	// event: code-dispatch list_products
}
