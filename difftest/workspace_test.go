package difftest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The generated workspace: sources with TODO markers, Markdown docs with headings in several
// scripts, a log of about 1.7 MB, 5,000 JSON records, a CSV with quoted fields, JSON Lines.
// Everything comes from one seeded generator, so every run sees the same bytes.

var (
	firstNames = []string{"Zoë", "José", "Ingrid", "Łukasz", "Amélie", "Søren", "Müller", "Ana", "Björn", "Chloé", "Dmitri", "Émile", "François", "Jürgen", "Noémie", "Renée", "Siobhán", "Tomás", "Yūko", "Zhang Wei", "Алексей", "Ольга", "さくら", "李娜", "Oğuz", "Ærø", "Niamh", "Åsa", "Beyoncé", "Kai"}
	lastNames  = []string{"García", "Okonkwo", "Nguyễn", "O'Brien", "Dvořák", "Straße", "Kowalski", "Lindqvist", "Petrović", "Smith", "Tanaka", "Müller-Lüdenscheidt", "de la Cruz", "Ødegaard", "Иванова", "山田", "Çelik", "Brontë", "Novák", "Åkesson"}
	cities     = []string{"São Paulo", "Zürich", "Kraków", "Montréal", "Malmö", "Reykjavík", "München", "Córdoba", "Tōkyō", "Москва", "Québec", "Düsseldorf", "Göteborg", "Bogotá", "Curaçao", "Berlin", "Paris", "Austin", "Lyon", "Sevilla"}
	products   = []string{"Crème brûlée kit", "Smörgåsbord tray", "Jalapeño sauce", "Café au lait mug", "Piñata", "Fjällräven bag", "Matcha 抹茶 tin", "Übersetzer pen", "Naïve notebook", "Résumé folder", "Espresso beans", "Wool socks", "USB-C cable", "Desk lamp", "Water bottle"}
	categories = []string{"kitchen", "office", "outdoor", "food", "electronics"}
	levels     = []string{"DEBUG", "INFO", "INFO", "INFO", "INFO", "WARN", "ERROR"}
	services   = []string{"api", "auth", "billing", "search", "worker", "gateway"}
	paths      = []string{"/v1/users", "/v1/orders", "/v1/orders/{id}", "/v1/search", "/healthz", "/v1/login", "/v1/invoices", "/v2/reports/export"}
	headings   = []string{"Überblick & Ziele", "Café-Bestellungen: Ablauf", "Résumé des données", "Configuración avanzada", "Ошибки и решения", "はじめに", "Performance — Ergebnisse (2024)", "Ça marche! Déploiement", "Smörgåsbord of Ideas", "Crème de la crème", "FAQ: Why «quotes»?", "数据 导入", "Naïve Bayes in 5 Minuten", "Emoji 🚀 launch plan", "Straße & Verkehr", "Ñandú: notas"}
	words      = []string{"the", "système", "données", "request", "naïve", "café", "über", "größe", "façade", "coöperate", "año", "résumé", "déjà", "vu", "timeout", "retry", "cache", "Straße", "für", "el", "niño", "là", "où", "plus", "schön", "daß", "smörgås", "fjord", "piñata", "jalapeño", "résumé", "Ångström", "and", "a", "of", "to", "in", "is", "it", "that"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// writeWorkspace generates the workspace under dir.
func writeWorkspace(t testing.TB, dir string) {
	t.Helper()
	r := rand.New(rand.NewPCG(20241202, 7))
	files := map[string]string{}

	// Sources: Go and TypeScript files with functions, TODO/FIXME markers and imports.
	pkgs := []string{"api", "auth", "billing", "store", "util", "web"}
	for i := 0; i < 48; i++ {
		pkg := pkgs[i%len(pkgs)]
		var b strings.Builder
		if i%3 == 2 {
			name := fmt.Sprintf("src/%s/component%02d.ts", pkg, i)
			fmt.Fprintf(&b, "import { helper } from \"../util/helpers\";\n\n")
			for f := 0; f < 3+r.IntN(12); f++ {
				fmt.Fprintf(&b, "export function handle%s%d(input: string): number {\n", strings.ToUpper(pkg[:1])+pkg[1:], f)
				if r.IntN(4) == 0 {
					fmt.Fprintf(&b, "  // TODO(%s): handle the empty case\n", strings.ToLower(pick(r, []string{"ana", "kai", "zoe", "jose"})))
				}
				fmt.Fprintf(&b, "  const n = input.length * %d;\n  return helper(n);\n}\n\n", f+1)
			}
			files[name] = b.String()
			continue
		}
		name := fmt.Sprintf("src/%s/file%02d.go", pkg, i)
		fmt.Fprintf(&b, "// Package %s does things.\npackage %s\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n", pkg, pkg)
		for f := 0; f < 2+r.IntN(20); f++ {
			exported := r.IntN(3) > 0
			fname := fmt.Sprintf("process%d", f)
			if exported {
				fname = fmt.Sprintf("Process%d", f)
				if r.IntN(3) > 0 {
					fmt.Fprintf(&b, "// %s processes item %d.\n", fname, f)
				}
			}
			fmt.Fprintf(&b, "func %s(s string) string {\n", fname)
			switch r.IntN(6) {
			case 0:
				b.WriteString("\t// TODO: validate the input\n")
			case 1:
				b.WriteString("\t// FIXME: this allocates too much\n")
			case 2:
				b.WriteString("\t// XXX: remove before release\n")
			}
			fmt.Fprintf(&b, "\treturn fmt.Sprint(strings.Repeat(s, %d))\n}\n\n", f+1)
		}
		files[name] = b.String()
	}
	files["src/util/helpers.ts"] = "export function helper(n: number): number {\n  return n * 2;\n}\n"

	// Docs: Markdown with headings in many scripts and prose with accents.
	for i := 0; i < 12; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", pick(r, headings))
		for s := 0; s < 3+r.IntN(4); s++ {
			fmt.Fprintf(&b, "## %s\n\n", pick(r, headings))
			for p := 0; p < 2+r.IntN(3); p++ {
				n := 20 + r.IntN(60)
				ws := make([]string, n)
				for k := range ws {
					ws[k] = pick(r, words)
				}
				fmt.Fprintf(&b, "%s.\n\n", strings.Join(ws, " "))
			}
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "- [ ] %s\n- [x] %s\n\n", pick(r, products), pick(r, products))
			}
		}
		files[fmt.Sprintf("docs/guide-%02d.md", i)] = b.String()
	}
	files["README.md"] = "# Démo workspace\n\nA generated project for differential tests. Ünïcödé everywhere.\n"
	files["package.json"] = `{
  "name": "demo-workspace",
  "version": "1.4.2",
  "private": true,
  "scripts": { "build": "tsc -p .", "test": "node --test" },
  "dependencies": { "left-pad": "^1.3.0", "lodash": "^4.17.21", "zod": "^3.22.4" },
  "devDependencies": { "typescript": "^5.4.0" }
}
`

	// A log of 14,000 lines (≈1.7 MB; issue 23 lifts the 2 Mi-character caps that keep it under 2 MB).
	{
		var b strings.Builder
		sec := int64(1709596800) // 2024-03-05T00:00:00Z
		for i := 0; i < 14000; i++ {
			sec += int64(r.IntN(4))
			lvl := pick(r, levels)
			svc := pick(r, services)
			ms := 1 + r.IntN(900)
			if r.IntN(50) == 0 {
				ms += 2000 + r.IntN(8000)
			}
			status := 200
			switch {
			case lvl == "ERROR":
				status = pick(r, []int{500, 502, 503, 504})
			case lvl == "WARN":
				status = pick(r, []int{400, 401, 404, 429})
			case r.IntN(10) == 0:
				status = 201
			}
			user := pick(r, firstNames)
			fmt.Fprintf(&b, "%s %-5s [%s] req=%06x user=%q path=%s status=%d duration=%dms msg=%q\n",
				fmtTime(sec), lvl, svc, r.IntN(1<<24), user, pick(r, paths), status, ms,
				pick(r, []string{"ok", "cache miss", "upstream timeout", "retrying request", "invalid token", "rate limited", "données reçues", "größe überschritten"}))
		}
		files["logs/app.log"] = b.String()
	}

	// 5,000 JSON records (pretty-printed array) and the same users as JSON Lines.
	{
		var b, jl strings.Builder
		b.WriteString("[\n")
		for i := 0; i < 5000; i++ {
			name := pick(r, firstNames) + " " + pick(r, lastNames)
			tags := []string{}
			for k := 0; k < r.IntN(4); k++ {
				tags = append(tags, fmt.Sprintf("%q", pick(r, categories)))
			}
			active := r.IntN(5) > 0
			score := float64(r.IntN(10000)) / 100
			rec := fmt.Sprintf(`{"id": %d, "name": %q, "email": "user%d@example.com", "city": %q, "age": %d, "active": %t, "score": %v, "tags": [%s], "signup": "%s", "plan": %q, "spend": %d.%02d}`,
				i+1, name, i+1, pick(r, cities), 18+r.IntN(60), active, score, strings.Join(tags, ", "),
				fmtTime(1577836800 + int64(r.IntN(150000000)))[:10], pick(r, []string{"free", "pro", "team", "enterprise"}), r.IntN(5000), r.IntN(100))
			sep := ",\n"
			if i == 4999 {
				sep = "\n"
			}
			b.WriteString("  " + rec + sep)
			jl.WriteString(rec + "\n")
		}
		b.WriteString("]\n")
		files["data/records.json"] = b.String()
		files["data/users.jsonl"] = jl.String()
	}

	// A CSV of 3,000 sales with quoted fields (commas and quotes inside).
	{
		var b strings.Builder
		b.WriteString("order_id,date,customer,city,product,category,quantity,unit_price,discount\n")
		for i := 0; i < 3000; i++ {
			prod := pick(r, products)
			cust := pick(r, firstNames) + " " + pick(r, lastNames)
			if r.IntN(8) == 0 {
				cust = cust + ", Jr."
			}
			if strings.ContainsAny(prod, ",\"") || strings.Contains(cust, ",") || strings.Contains(cust, "'") {
				cust = `"` + strings.ReplaceAll(cust, `"`, `""`) + `"`
			}
			fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%d,%d.%02d,%s\n", 10000+i, fmtTime(1704067200 + int64(r.IntN(31536000)))[:10],
				cust, pick(r, cities), prod, pick(r, categories), 1+r.IntN(9), 1+r.IntN(200), r.IntN(100),
				pick(r, []string{"0", "0", "0", "0.1", "0.15", "0.25"}))
		}
		files["data/sales.csv"] = b.String()
	}

	// A flaky-service status file the retry programs poll, and a small config.
	files["config/settings.json"] = `{"retries": 3, "backoffMs": [20, 40, 80], "locale": "de-DE", "currency": "EUR", "threshold": 0.75}` + "\n"

	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fmtTime formats Unix seconds as an RFC 3339 UTC timestamp.
func fmtTime(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }
