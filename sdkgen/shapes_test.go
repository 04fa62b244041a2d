package sdkgen

import (
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// entitySchema is an object type big enough to be worth naming when repeated.
const entitySchema = `{"type":"object","properties":{"name":{"type":"string","description":"The entity's name."},"kind":{"type":"string","description":"What the entity is."},"tags":{"type":"array","items":{"type":"string"}}},"required":["name","kind"]}`

func TestSharedShapes(t *testing.T) {
	listOf := func(key, item string) jsonv.Value {
		return jsonv.MustParse(`{"type":"object","properties":{"` + key + `":{"type":"array","items":` + item + `}},"required":["` + key + `"]}`)
	}
	t.Run("a repeated object is declared once, named after its collection", func(t *testing.T) {
		tools := []Tool{
			{Name: "create", Parameters: listOf("entities", entitySchema), Output: listOf("entities", entitySchema)},
			{Name: "search", Parameters: jsonv.MustParse(`{"type":"object","properties":{"q":{"type":"string"}}}`), Output: listOf("entities", entitySchema)},
		}
		got := Declarations(tools)
		if strings.Count(got, "The entity's name.") != 1 || !strings.Contains(got, "type Entity = {") {
			t.Fatalf("Entity not declared once:\n%s", got)
		}
		if !strings.Contains(got, "create(args: { entities: Entity[] }): Promise<EntitiesResult>;") && !strings.Contains(got, "create(args: { entities: Entity[] }): Promise<{ entities: Entity[] }>;") {
			t.Errorf("create does not use Entity:\n%s", got)
		}
	})
	t.Run("schemas that differ only where the type does not show are one shape", func(t *testing.T) {
		closed := strings.Replace(entitySchema, `"required"`, `"additionalProperties":false,"$comment":"x","required"`, 1)
		tools := []Tool{
			{Name: "a", Parameters: listOf("entities", entitySchema)},
			{Name: "b", Parameters: listOf("entities", closed)},
			{Name: "c", Parameters: listOf("entities", closed)},
		}
		if got := Declarations(tools); strings.Count(got, "The entity's name.") != 1 {
			t.Errorf("not shared:\n%s", got)
		}
	})
	t.Run("a global of the TypeScript libraries is not taken", func(t *testing.T) {
		tools := []Tool{
			{Name: "a", Parameters: listOf("files", entitySchema)},
			{Name: "b", Parameters: listOf("files", entitySchema)},
			{Name: "c", Parameters: listOf("nodes", entitySchema)},
		}
		got := Declarations(tools)
		if !strings.Contains(got, "type FileType = {") || strings.Contains(got, "type File =") {
			t.Errorf("File is a DOM global:\n%s", got)
		}
		if !reservedName("Node") || !reservedName("Record") || !reservedName("JsonValue") || reservedName("Entity") {
			t.Error("reservedName")
		}
	})
	t.Run("a shape inside a named shape is declared only if it still repeats", func(t *testing.T) {
		graph := `{"type":"object","properties":{"entities":{"type":"array","items":` + entitySchema + `},"count":{"type":"integer"}},"required":["entities","count"]}`
		tools := []Tool{
			{Name: "read", Parameters: jsonv.MustParse(`{"type":"object","properties":{}}`), Output: jsonv.MustParse(graph)},
			{Name: "open", Parameters: jsonv.MustParse(`{"type":"object","properties":{}}`), Output: jsonv.MustParse(graph)},
		}
		got := Declarations(tools)
		if strings.Count(got, "The entity's name.") != 1 || strings.Contains(got, "type Entity =") || !strings.Contains(got, "type OpenResult = {") {
			t.Errorf("want only OpenResult declared, with the entity inside:\n%s", got)
		}
	})
	t.Run("a small repeat stays in place", func(t *testing.T) {
		small := `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`
		tools := []Tool{{Name: "a", Output: jsonv.MustParse(small)}, {Name: "b", Output: jsonv.MustParse(small)}}
		if got := Declarations(tools); strings.Contains(got, "type ") && strings.Contains(got, "= { ok: boolean }") {
			t.Errorf("a one-member object was named:\n%s", got)
		}
	})
	t.Run("a shape whose text depends on a tool's alias stays in place", func(t *testing.T) {
		withRef := `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"$ref":"#/$defs/id"},"name":{"type":"string","description":"A long enough description to be worth naming."}}}}},"$defs":{"id":{"type":"string"}}}`
		tools := []Tool{{Name: "a", Parameters: jsonv.MustParse(withRef)}, {Name: "b", Parameters: jsonv.MustParse(withRef)}}
		got := Declarations(tools)
		if strings.Contains(got, "type Item") || !strings.Contains(got, "A_Id") || !strings.Contains(got, "B_Id") {
			t.Errorf("a shape with a reference was named:\n%s", got)
		}
	})
}

func TestSingular(t *testing.T) {
	for in, want := range map[string]string{"Entities": "Entity", "Edits": "Edit", "Boxes": "Box", "Matches": "Match", "Address": "Address",
		"Data": "Data", "Status": "Status", "Analysis": "Analysis", "S": "S", "": ""} {
		if got := singular(in); got != want {
			t.Errorf("singular(%q) = %q, want %q", in, got, want)
		}
	}
}
