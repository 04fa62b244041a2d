// Command embed runs Code Mode embedded in a Go program: two tools typed with Go structs,
// run_code installed beside them by codemode.New, and one TypeScript program that calls both,
// run through the registry as a model's run_code call would be.
//
//	go run ./examples/embed
package main

import (
	"context"
	"fmt"
	"log"

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

const program = `for (const name of await tools.list_products({})) {
  const p = await tools.get_product({ name });
  console.log(name + ": " + p.stock + " in stock, " + p.tags.length + " tags");
}
try { await tools.get_product({ name: "kiwi" }); } catch (e) { return e.message; }`

func main() {
	reg := registry.New()
	reg.Register(registry.MustDefine(registry.TypedTool[Query, Product]{Name: "get_product", Description: "Get one product.", Execute: getProduct}),
		registry.MustDefine(registry.TypedTool[struct{}, []string]{Name: "list_products", Description: "List the product names.", Execute: listProducts}))
	cm, err := codemode.New(reg, codemode.Options{}) // installs run_code on an in-process runtime
	if err != nil {
		log.Fatal(err)
	}
	defer cm.Close()
	reg.SetDefaultPresentation(registry.PresentCode) // the model is offered run_code alone
	prompt, _ := cm.Prompt(nil)                      // the SDK section of its system prompt
	// A failed program is out.Failure; Run's error says the call ran no program (a hook denied
	// it, say), and out.Text, what the model reads, says so too.
	out, _ := cm.Run(context.Background(), codemode.Program{Code: program, Description: "Report stock"})
	fmt.Printf("%s\n\n%s\n", prompt, out.Text)
}
