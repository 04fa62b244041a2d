package jsonv_test

import (
	"fmt"

	"github.com/runcode-dev/runcode/jsonv"
)

// Values keep key order and print like JavaScript's JSON.stringify.
func Example() {
	v := jsonv.MustParse(`{"z": 1e21, "a": "<b>&", "list": [0.1, true, null]}`)
	fmt.Println(v)
	fmt.Println(v.Lookup("z").AsNumber() == 1e21, v.Lookup("list").Len())
	fmt.Println(string(jsonv.AppendIndent(nil, v.Lookup("list"), "  ", -1)))
	// Output:
	// {"z":1e+21,"a":"<b>&","list":[0.1,true,null]}
	// true 3
	// [
	//   0.1,
	//   true,
	//   null
	// ]
}
