package jsruntime

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/dop251/goja"
	"golang.org/x/text/width"
)

// consoleTable renders console.table(data, properties) as Node 22 does (lib/internal/console and
// lib/internal/cli_table): a box-drawn table of data's rows (own enumerable keys, Map entries or
// Set values) and columns (the rows' keys, or properties), each cell rendered as util.inspect
// does on one line. Anything but an object is logged as console.log would.
func (r *run) consoleTable(data, properties goja.Value) string {
	var props []string
	if !goja.IsUndefined(properties) {
		po, ok := properties.(*goja.Object)
		if !ok || po.ClassName() != "Array" {
			e := r.vm.NewTypeError("The \"properties\" argument must be an instance of Array." + received(r, properties))
			_ = e.Set("code", "ERR_INVALID_ARG_TYPE")
			panic(e)
		}
		n := po.Get("length").ToInteger()
		for i := int64(0); i < n && i < inspectMaxArray*100; i++ {
			props = append(props, jsString(po.Get(strconv.FormatInt(i, 10))))
		}
	}
	o, ok := data.(*goja.Object)
	if !ok {
		return r.inspectArg(data)
	}
	// cell renders one cell; the cells together count against the output cap, as one line.
	produced := 0
	cell := func(v goja.Value) string {
		in := r.newInspector()
		in.breakLength = math.MaxInt32
		in.produced = produced
		s := in.finish(in.formatValue(v, 0))
		produced += utf16Len(s) + 3
		if produced > r.led.room() && r.recorded() == nil {
			r.stop(&Failure{Kind: KindOutputLimit, Message: "output limit"})
		}
		return s
	}
	index := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.Itoa(i)
		}
		return out
	}
	switch o.ExportType() {
	case mapExportType:
		in := r.newInspector()
		in.maxArray = math.MaxInt32 - 1
		entries := in.collection(o, true)
		keys, values := make([]string, 0, len(entries)/2), make([]string, 0, len(entries)/2)
		for i := 0; i+1 < len(entries); i += 2 {
			keys = append(keys, cell(entries[i]))
			values = append(values, cell(entries[i+1]))
		}
		return renderTable([]string{"(iteration index)", "Key", "Values"}, [][]string{index(len(keys)), keys, values})
	case setExportType:
		if o.ClassName() == "Object" {
			in := r.newInspector()
			in.maxArray = math.MaxInt32 - 1
			entries := in.collection(o, false)
			values := make([]string, 0, len(entries))
			for _, v := range entries {
				values = append(values, cell(v))
			}
			return renderTable([]string{"(iteration index)", "Values"}, [][]string{index(len(values)), values})
		}
	}
	rowKeys := o.Keys()
	var (
		columnNames   []string
		columns       = map[string][]string{}
		hasPrimitives bool
		primitives    = make([]string, len(rowKeys))
	)
	addColumn := func(name string) {
		if _, ok := columns[name]; !ok {
			columns[name] = make([]string, len(rowKeys))
			columnNames = append(columnNames, name)
		}
	}
	for i, k := range rowKeys {
		if r.recorded() != nil {
			return ""
		}
		item := o.Get(k)
		itemObj, isObj := item.(*goja.Object)
		if props == nil && !isObj {
			hasPrimitives = true
			primitives[i] = cell(item)
			continue
		}
		keys := props
		if keys == nil {
			keys = itemObj.Keys()
		}
		for _, key := range keys {
			if r.recorded() != nil {
				return ""
			}
			addColumn(key)
			if !isObj || !hasOwn(itemObj, key) {
				columns[key][i] = ""
				continue
			}
			columns[key][i] = cell(itemObj.Get(key))
		}
	}
	// The columns are the keys of an object in JavaScript's order: integer keys ascending first.
	slices.SortStableFunc(columnNames, func(a, b string) int {
		ai, bi := isArrayIndex(a), isArrayIndex(b)
		switch {
		case ai && bi:
			x, _ := strconv.ParseUint(a, 10, 64)
			y, _ := strconv.ParseUint(b, 10, 64)
			return cmpUint(x, y)
		case ai:
			return -1
		case bi:
			return 1
		}
		return 0
	})
	head := append([]string{"(index)"}, columnNames...)
	cols := [][]string{rowKeys}
	for _, name := range columnNames {
		// A row that never set this column leaves a hole, which renders as "".
		cols = append(cols, columns[name])
	}
	if hasPrimitives {
		head = append(head, "Values")
		cols = append(cols, primitives)
	}
	return renderTable(head, cols)
}

func cmpUint(x, y uint64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// hasOwn reports whether o has an own property key (through the realm's descriptor lookup).
func hasOwn(o *goja.Object, key string) bool {
	for _, k := range o.GetOwnPropertyNames() {
		if k == key {
			return true
		}
	}
	return false
}

// received describes a value as Node's ERR_INVALID_ARG_TYPE messages do (the common cases).
func received(r *run, v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return " Received undefined"
	case goja.IsNull(v):
		return " Received null"
	}
	if o, ok := v.(*goja.Object); ok {
		in := r.newInspector()
		if name, ok := in.constructorName(o); ok {
			return " Received an instance of " + name
		}
		return " Received [Object: null prototype]"
	}
	in := r.newInspector()
	s := in.formatPrimitive(v)
	if utf16Len(s) > 28 {
		s = string([]rune(s)[:25]) + "..."
	}
	typ := "number"
	switch v.(type) {
	case goja.String:
		typ = "string"
	case *goja.Symbol:
		typ = "symbol"
	default:
		switch v.Export().(type) {
		case bool:
			typ = "boolean"
		case string:
			typ = "string"
		}
		if strings.HasSuffix(s, "n") && typ == "number" {
			typ = "bigint"
		}
	}
	return " Received type " + typ + " (" + s + ")"
}

// Box-drawing characters of Node's cli_table.
const (
	tableMiddleMiddle = "─"
	tableRowMiddle    = "┼"
	tableTopRight     = "┐"
	tableTopLeft      = "┌"
	tableLeftMiddle   = "├"
	tableTopMiddle    = "┬"
	tableBottomRight  = "┘"
	tableBottomLeft   = "└"
	tableBottomMiddle = "┴"
	tableRightMiddle  = "┤"
	tableLeft         = "│ "
	tableRight        = " │"
	tableMiddle       = " │ "
)

// renderTable is Node 22's cli_table: cells left-aligned, padded to their column's width.
func renderTable(head []string, columns [][]string) string {
	widths := make([]int, len(head))
	for i, h := range head {
		widths[i] = stringWidth(h)
	}
	longest := 0
	for _, c := range columns {
		longest = max(longest, len(c))
	}
	rows := make([][]string, longest)
	for j := range rows {
		rows[j] = make([]string, len(head))
		for i := range head {
			v := ""
			if i < len(columns) && j < len(columns[i]) {
				v = columns[i][j]
			}
			rows[j][i] = v
			widths[i] = max(widths[i], stringWidth(v))
		}
	}
	divider := make([]string, len(widths))
	for i, w := range widths {
		divider[i] = strings.Repeat(tableMiddleMiddle, w+2)
	}
	var b strings.Builder
	b.WriteString(tableTopLeft + strings.Join(divider, tableTopMiddle) + tableTopRight + "\n")
	b.WriteString(renderRow(head, widths) + "\n")
	b.WriteString(tableLeftMiddle + strings.Join(divider, tableRowMiddle) + tableRightMiddle + "\n")
	for _, row := range rows {
		b.WriteString(renderRow(row, widths) + "\n")
	}
	b.WriteString(tableBottomLeft + strings.Join(divider, tableBottomMiddle) + tableBottomRight)
	return b.String()
}

func renderRow(row []string, widths []int) string {
	var b strings.Builder
	b.WriteString(tableLeft)
	for i, c := range row {
		b.WriteString(c)
		b.WriteString(strings.Repeat(" ", max(widths[i]-stringWidth(c), 0)))
		if i != len(row)-1 {
			b.WriteString(tableMiddle)
		}
	}
	b.WriteString(tableRight)
	return b.String()
}

// stringWidth approximates Node's getStringWidth: East Asian wide and fullwidth characters
// count two columns, combining marks and format characters none.
func stringWidth(s string) int {
	n := 0
	for _, c := range s {
		switch {
		case unicode.Is(unicode.Mn, c) || unicode.Is(unicode.Me, c) || unicode.Is(unicode.Cf, c):
		case width.LookupRune(c).Kind() == width.EastAsianWide || width.LookupRune(c).Kind() == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
