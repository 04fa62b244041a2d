package command_test

import (
	"context"
	"fmt"
	"log"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/toolsets/command"
)

func Example() {
	manifest := []byte(`{"tools": [{
		"name": "answer",
		"description": "The answer.",
		"output": {"type": "number"},
		"command": ["sh", "-c", "echo 42"]
	}]}`)
	tools, err := command.Parse(manifest, "json", ".", "tools.json")
	if err != nil {
		log.Fatal(err)
	}
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		log.Fatal(err)
	}
	res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "answer", Arguments: jsonv.MustParse(`{}`)})
	fmt.Println(res.IsError, res.Value)

	// A manifest mistake names the file, the tool and the key.
	_, err = command.Parse([]byte(`{"tools": [{"name": "add", "comand": ["x"]}]}`), "json", ".", "tools.json")
	fmt.Println(err)
	// Output:
	// false 42
	// tools.json: tool "add": unknown key "comand"
}
