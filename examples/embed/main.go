// Command embed shows runcode embedded in a Go program: two tools defined in Go (one with
// explicit JSON Schemas, one typed with Go structs), the run_code tool installed beside them and
// presented as code (the prompt and tool list a model would be sent), and one TypeScript program
// that calls both, run through the same registry call an agent's model would make.
//
//	go run ./examples/embed
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// inventory is the data behind the two tools.
var inventory = map[string]struct {
	Stock int
	Price float64
}{
	"apple": {Stock: 12, Price: 0.5}, "pear": {Stock: 0, Price: 0.75}, "plum": {Stock: 40, Price: 0.2},
}

// productQuery is get_product's input; its JSON Schema is inferred from the fields and tags.
type productQuery struct {
	Name string `json:"name" description:"Product name."`
}

// product is get_product's result.
type product struct {
	Name  string  `json:"name"`
	Stock int     `json:"stock" minimum:"0"`
	Price float64 `json:"price"`
}

func tools() []registry.Tool {
	return []registry.Tool{
		{
			Name:        "list_products",
			Description: "List the names of all products.",
			Output:      registry.OutputOf(jsonv.MustParse(`{"type":"array","items":{"type":"string"}}`)),
			Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
				names := []jsonv.Value{}
				for _, n := range []string{"apple", "pear", "plum"} {
					names = append(names, jsonv.StringValue(n))
				}
				return jsonv.ArrayValue(names...), nil
			},
			ConcurrencySafe: func(jsonv.Value) bool { return true },
		},
		registry.MustDefine(registry.TypedTool[productQuery, product]{
			Name:        "get_product",
			Description: "Get one product's stock and unit price.",
			Execute: func(ctx context.Context, inv *registry.Invocation, q productQuery) (product, error) {
				p, ok := inventory[strings.ToLower(q.Name)]
				if !ok {
					return product{}, fmt.Errorf("no product named %q", q.Name)
				}
				return product{Name: q.Name, Stock: p.Stock, Price: p.Price}, nil
			},
			ConcurrencySafe: func(productQuery) bool { return true },
		}),
	}
}

const program = `
interface Product { name: string; stock: number; price: number }
const names = await tools.list_products({});
const products: Product[] = await Promise.all(names.map((name) => tools.get_product({ name })));
const out = products.filter((p) => p.stock === 0).map((p) => p.name);
try {
  await tools.get_product({ name: "kiwi" });
} catch (e) {
  if (e instanceof ToolCallError) console.log(e.toolName + " failed: " + e.message);
}
console.log("out of stock:", out);
return { stockValue: products.reduce((sum, p) => sum + p.stock * p.price, 0) };
`

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer) error {
	reg := registry.New()
	if _, err := reg.Register(tools()...); err != nil {
		return err
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		return err
	}
	if err := codemode.Install(reg, codemode.Options{Runtime: rt}); err != nil {
		return err
	}
	// Present the tools as code only: the model calls run_code, and programs call the tools.
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		return err
	}

	// What the model would read in its system prompt:
	sections, err := codemode.Sections(reg, nil, codemode.SectionOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, codemode.RenderPrompt(sections))
	fmt.Fprintln(w)

	// The tools the model is offered:
	for _, s := range codemode.WireSchemas(reg, nil) {
		fmt.Fprintln(w, "tool:", s.Name)
	}
	fmt.Fprintln(w)

	// What the model's run_code call returns:
	res := reg.Execute(context.Background(), registry.Call{
		CallID: "call-1",
		Name:   registry.ReservedName,
		Arguments: jsonv.ObjectValue(
			jsonv.Member{Key: "code", Value: jsonv.StringValue(program)},
			jsonv.Member{Key: "description", Value: jsonv.StringValue("Report stock")},
		),
	})
	fmt.Fprintln(w, res.Content[0].Text)
	return nil
}
