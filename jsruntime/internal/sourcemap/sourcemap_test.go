package sourcemap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

func TestShiftFirstLineColumns(t *testing.T) {
	// Segments: line 0 col 70; line 0 col 80; then line 1 col 4 (original columns are deltas).
	var b strings.Builder
	for _, f := range [][]int{{0, 0, 0, 70}, {5, 0, 0, 10}} {
		for _, v := range f {
			encodeVLQ(&b, v)
		}
		b.WriteByte(',')
	}
	in := strings.TrimSuffix(b.String(), ",") + ";"
	var b2 strings.Builder
	for _, v := range []int{2, 0, 1, -76} {
		encodeVLQ(&b2, v)
	}
	in += b2.String()
	got, err := shiftFirstLineColumns(in, 64)
	if err != nil {
		t.Fatal(err)
	}
	var cols []int
	var line, col int
	for _, gl := range strings.Split(got, ";") {
		for _, seg := range strings.Split(gl, ",") {
			f, err := decodeVLQ(seg)
			if err != nil {
				t.Fatal(err)
			}
			line += f[2]
			col += f[3]
			cols = append(cols, line*1000+col)
		}
	}
	if fmt.Sprint(cols) != "[6 16 1004]" {
		t.Fatalf("line*1000+col = %v, want [6 16 1004]", cols)
	}
}

func TestShiftSourceMapRewritesOnlyTheMappings(t *testing.T) {
	const prefix = "(async function (tools) {"
	res := api.Transform(prefix+"const a: number = 1; throw new Error(String(a))\n})", api.TransformOptions{
		Loader: api.LoaderTS, Sourcefile: "main.ts", Sourcemap: api.SourceMapExternal, SourcesContent: api.SourcesContentExclude,
	})
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	if _, _, ok := mappingsSpan(res.Map); !ok {
		t.Fatalf("esbuild's map not recognised: %s", res.Map)
	}
	got, err := Shift(res.Map, len(prefix))
	if err != nil {
		t.Fatal(err)
	}
	var in, out map[string]any
	if err := json.Unmarshal(res.Map, &in); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &out); err != nil {
		t.Fatalf("shifted map is not JSON: %v: %s", err, got)
	}
	want, err := shiftFirstLineColumns(in["mappings"].(string), len(prefix))
	if err != nil {
		t.Fatal(err)
	}
	in["mappings"] = want
	if !reflect.DeepEqual(in, out) {
		t.Errorf("shifted map = %v, want %v", out, in)
	}
	// A map the scan does not recognise takes the decoding path, with the same result.
	spaced := bytes.Replace(res.Map, []byte(`"mappings":`), []byte(`"mappings" : `), 1)
	twice := append(bytes.TrimSuffix(bytes.TrimSpace(spaced), []byte("}")), []byte(`,"x":"\"mappings\""}`)...)
	if got, err := Shift(twice, len(prefix)); err != nil || !bytes.Contains(got, []byte(want)) {
		t.Errorf("fallback: %v, %s", err, got)
	}
}
