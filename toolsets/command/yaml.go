package command

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/runcode-dev/runcode/jsonv"
	"gopkg.in/yaml.v3"
)

// Limits on the JSON value a YAML document may expand to through aliases; they stop
// "billion laughs" documents and keep the recursion shallow.
const (
	yamlMaxNodes = 1 << 20
	yamlMaxDepth = 10000
)

// parseYAML decodes the first YAML document in data into a JSON value, keeping mapping order.
// Scalars resolve per the YAML core schema (null, booleans, integers, floats, strings); aliases
// are expanded and merge keys (<<) applied. Anything JSON cannot hold (non-scalar or duplicate
// keys, .inf/.nan, custom tags) is an error naming its line.
func parseYAML(data []byte) (jsonv.Value, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return jsonv.Value{}, errors.New(trimYAMLPrefix(err.Error()))
	}
	if root.Kind == 0 {
		return jsonv.Value{}, errors.New("the document is empty")
	}
	c := &yamlConverter{active: map[*yaml.Node]bool{}}
	return c.convert(&root, 0)
}

func trimYAMLPrefix(msg string) string {
	const p = "yaml: "
	if len(msg) > len(p) && msg[:len(p)] == p {
		return msg[len(p):]
	}
	return msg
}

type yamlConverter struct {
	nodes  int
	active map[*yaml.Node]bool // anchors being expanded, to refuse self-containing ones
}

func yamlErr(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", n.Line, fmt.Sprintf(format, args...))
}

func (c *yamlConverter) convert(n *yaml.Node, depth int) (jsonv.Value, error) {
	c.nodes++
	if c.nodes > yamlMaxNodes {
		return jsonv.Value{}, yamlErr(n, "the document expands to more than %d values", yamlMaxNodes)
	}
	if depth > yamlMaxDepth {
		return jsonv.Value{}, yamlErr(n, "the document nests deeper than %d levels", yamlMaxDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return jsonv.Value{}, errors.New("the document is empty")
		}
		return c.convert(n.Content[0], depth+1)
	case yaml.AliasNode:
		return c.alias(n, depth)
	case yaml.SequenceNode:
		if t := n.ShortTag(); t != "!!seq" {
			return jsonv.Value{}, yamlErr(n, "unsupported tag %q on a sequence", n.Tag)
		}
		items := make([]jsonv.Value, 0, len(n.Content))
		for _, child := range n.Content {
			v, err := c.convert(child, depth+1)
			if err != nil {
				return jsonv.Value{}, err
			}
			items = append(items, v)
		}
		return jsonv.ArrayValue(items...), nil
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.ScalarNode:
		return scalar(n)
	}
	return jsonv.Value{}, yamlErr(n, "unsupported YAML node")
}

func (c *yamlConverter) alias(n *yaml.Node, depth int) (jsonv.Value, error) {
	target := n.Alias
	if target == nil {
		return jsonv.Value{}, yamlErr(n, "alias *%s has no anchor", n.Value)
	}
	if c.active[target] {
		return jsonv.Value{}, yamlErr(n, "anchor &%s contains itself", n.Value)
	}
	c.active[target] = true
	defer delete(c.active, target)
	return c.convert(target, depth+1)
}

// mapping converts a mapping: explicit keys in order, with merged (<<) keys placed where the
// merge key stands unless the mapping sets them itself.
func (c *yamlConverter) mapping(n *yaml.Node, depth int) (jsonv.Value, error) {
	if t := n.ShortTag(); t != "!!map" {
		return jsonv.Value{}, yamlErr(n, "unsupported tag %q on a mapping", n.Tag)
	}
	if len(n.Content)%2 != 0 {
		return jsonv.Value{}, yamlErr(n, "malformed mapping")
	}
	explicit := map[string]bool{}
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i]
		if isMergeKey(k) {
			continue
		}
		key, err := mappingKey(k)
		if err != nil {
			return jsonv.Value{}, err
		}
		if explicit[key] {
			return jsonv.Value{}, yamlErr(k, "duplicate key %q", key)
		}
		explicit[key] = true
	}
	var members []jsonv.Member
	added := map[string]bool{}
	for i := 0; i < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		if isMergeKey(k) {
			merged, err := c.mergeSources(vn, depth)
			if err != nil {
				return jsonv.Value{}, err
			}
			for _, m := range merged {
				if !explicit[m.Key] && !added[m.Key] {
					added[m.Key] = true
					members = append(members, m)
				}
			}
			continue
		}
		key, _ := mappingKey(k)
		v, err := c.convert(vn, depth+1)
		if err != nil {
			return jsonv.Value{}, err
		}
		members = append(members, jsonv.Member{Key: key, Value: v})
	}
	if members == nil {
		members = []jsonv.Member{}
	}
	return jsonv.ObjectValue(members...), nil
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge"
}

// mergeSources returns the members a merge key brings in: one mapping, or a sequence of
// mappings where earlier ones win.
func (c *yamlConverter) mergeSources(vn *yaml.Node, depth int) ([]jsonv.Member, error) {
	var sources []*yaml.Node
	if resolveAlias(vn).Kind == yaml.SequenceNode {
		sources = resolveAlias(vn).Content
	} else {
		sources = []*yaml.Node{vn}
	}
	var out []jsonv.Member
	seen := map[string]bool{}
	for _, src := range sources {
		if resolveAlias(src).Kind != yaml.MappingNode {
			return nil, yamlErr(src, "a merge key (<<) needs a mapping or a sequence of mappings")
		}
		v, err := c.convert(src, depth+1)
		if err != nil {
			return nil, err
		}
		for _, m := range v.Members() {
			if !seen[m.Key] {
				seen[m.Key] = true
				out = append(out, m)
			}
		}
	}
	return out, nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; i < 100 && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

// mappingKey returns a key's text; only scalar keys can become JSON object keys.
func mappingKey(k *yaml.Node) (string, error) {
	r := resolveAlias(k)
	if r.Kind != yaml.ScalarNode {
		return "", yamlErr(k, "a mapping key must be a scalar")
	}
	return r.Value, nil
}

// scalar resolves a scalar per the YAML core schema.
func scalar(n *yaml.Node) (jsonv.Value, error) {
	switch tag := n.ShortTag(); tag {
	case "!!str", "!!timestamp", "!!binary":
		// Timestamps stay the text they were written as; binary stays its base64 text.
		return jsonv.StringValue(n.Value), nil
	case "!!null":
		return jsonv.NullValue(), nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return jsonv.Value{}, yamlErr(n, "invalid boolean %q", n.Value)
		}
		return jsonv.BoolValue(b), nil
	case "!!int", "!!float":
		var x any
		if err := n.Decode(&x); err != nil {
			return jsonv.Value{}, yamlErr(n, "invalid number %q", n.Value)
		}
		var f float64
		switch t := x.(type) {
		case int:
			f = float64(t)
		case int64:
			f = float64(t)
		case uint64:
			f = float64(t)
		case float64:
			f = t
		default:
			// An integer too large for int64/uint64 decodes as its text.
			p, err := strconv.ParseFloat(n.Value, 64)
			if err != nil {
				return jsonv.Value{}, yamlErr(n, "invalid number %q", n.Value)
			}
			f = p
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return jsonv.Value{}, yamlErr(n, "%s is not a JSON number", n.Value)
		}
		if f == 0 {
			f = 0 // JSON has no -0
		}
		v, err := jsonv.NumberValue(f)
		if err != nil {
			return jsonv.Value{}, yamlErr(n, "%s is not a JSON number", n.Value)
		}
		return v, nil
	case "!!merge":
		return jsonv.Value{}, yamlErr(n, "a merge key (<<) can only be a mapping key")
	default:
		return jsonv.Value{}, yamlErr(n, "unsupported tag %q", n.Tag)
	}
}
