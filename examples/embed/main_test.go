package main

import (
	"strings"
	"testing"
)

func TestEmbeddedRunCallsBothGoTools(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	want := "get_product failed: no product named \"kiwi\"\nout of stock: [ 'pear' ]\n{\n  \"stockValue\": 14\n}\n"
	if !strings.HasSuffix(out.String(), want) {
		t.Fatalf("output ends:\n%s\nwant:\n%s", out.String()[max(0, out.Len()-200):], want)
	}
	if !strings.Contains(out.String(), "`run_code` is the only tool you can call directly") ||
		!strings.Contains(out.String(), "\ntool: run_code\n\n") || strings.Contains(out.String(), "tool: get_product") {
		t.Fatalf("the code presentation is missing from the output:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "  get_product(args: { /** Product name. */ name: string }): Promise<") {
		t.Fatalf("prompt section lacks the typed get_product arguments:\n%s", out.String())
	}
}
