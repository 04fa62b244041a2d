package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The -data mode's generated files. Each is written until it reaches the requested size; the
// generator is seeded, so one size always gives the same bytes.
const (
	recordsJSON = "records.json" // an array of user records (non-ASCII names, tags, dates)
	recordsCSV  = "records.csv"  // the same kind of records as CSV, without quoted fields
	appLog      = "app.log"      // an access log: timestamp, level, service, request, status, latency, ip, user
	proseMD     = "prose.md"     // Markdown prose in six languages
)

var (
	firstNames = []string{"José", "Zoë", "Mia", "Noah", "Łukasz", "Søren", "Amélie", "Björn", "Chloé", "Liam",
		"Olivia", "Ngozi", "Ana", "François", "Hiroshi", "Mei", "Дмитрий", "Ayşe", "Ömer", "Lucía", "Emma", "Raj"}
	lastNames = []string{"García", "Müller", "Smith", "Nguyễn", "Kowalski", "Ødegaard", "Dubois", "O'Brien",
		"Johnson", "Rossi", "Schäfer", "Tanaka", "Иванов", "Yılmaz", "Silva", "Brown", "Núñez", "Lee"}
	countries = []string{"DE", "FR", "ES", "US", "GB", "JP", "CN", "BR", "SE", "PL", "TR", "IN", "NG", "RU"}
	tagWords  = []string{"admin", "beta", "vip", "trial", "churned", "enterprise", "edu", "partner", "internal", "new"}
	services  = []string{"api", "auth", "billing", "search", "web-front"}
	methods   = []string{"GET", "GET", "GET", "POST", "PUT", "DELETE"}
	pathBases = []string{"/api/users", "/api/orders", "/api/search", "/login", "/static/app.js", "/api/invoices", "/health"}
	levels    = []string{"INFO", "INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"}
	messages  = []string{"request served", "slow upstream", "cache miss", "retrying after timeout", "token refreshed",
		"validation failed: champ « e-mail » invalide", "Zeitüberschreitung beim Warten", "conexión reiniciada"}
	proseWords = [][]string{
		{"the", "report", "shows", "that", "growth", "in", "quarterly", "revenue", "was", "driven", "by", "new", "customers", "timeout", "during", "deployment"},
		{"le", "café", "était", "fermé", "à", "cause", "de", "la", "grève", "élève", "déjà", "été", "français", "où", "garçon"},
		{"die", "straße", "war", "über", "nacht", "geschlossen", "größer", "müssen", "schön", "bäckerei", "fußgänger", "äpfel"},
		{"el", "niño", "mañana", "año", "también", "está", "canción", "corazón", "señor", "pingüino", "acción"},
		{"東京", "の", "天気", "は", "晴れ", "です", "会議", "資料", "確認", "お願いします"},
		{"привет", "мир", "отчёт", "данные", "сервер", "ошибка", "время", "ответа", "пользователь"},
	}
)

// generateData writes the four files of the -data mode into dir, each of about size bytes.
func generateData(dir string, size int64) error {
	gens := []struct {
		name string
		gen  func(r *rand.Rand, w *bufio.Writer, size int64) error
	}{
		{recordsJSON, genRecordsJSON}, {recordsCSV, genRecordsCSV}, {appLog, genLog}, {proseMD, genProse},
	}
	for i, g := range gens {
		f, err := os.Create(filepath.Join(dir, g.name))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<16)
		r := rand.New(rand.NewPCG(uint64(i)+1, uint64(size)))
		err = g.gen(r, w, size)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("generating %s: %w", g.name, err)
		}
	}
	return nil
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// countingWriter counts what passes through to a bufio.Writer.
type countingWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countingWriter) str(s string) { n, _ := c.w.WriteString(s); c.n += int64(n) }

var epoch = time.Date(2024, 3, 5, 8, 0, 0, 0, time.UTC)

// record returns the fields of one user record; withComma lets a name hold a comma (the JSON
// export has some, the CSV export none, so that splitting its lines on commas is right).
func record(r *rand.Rand, id int, withComma bool) (name, email, country string, age int, score float64, tags []string, active bool) {
	first, last := pick(r, firstNames), pick(r, lastNames)
	name = first + " " + last
	if withComma && r.IntN(50) == 0 {
		name += ", Jr."
	}
	email = strings.ToLower(strings.ReplaceAll(last, "'", "")) + strconv.Itoa(id) + "@example.com"
	country = pick(r, countries)
	age = 18 + r.IntN(60)
	score = float64(r.IntN(100000)) / 1000
	for range r.IntN(4) {
		tags = append(tags, pick(r, tagWords))
	}
	active = r.IntN(3) != 0
	return
}

func genRecordsJSON(r *rand.Rand, bw *bufio.Writer, size int64) error {
	w := &countingWriter{w: bw}
	w.str("[")
	for id := 1; w.n < size || id == 1; id++ {
		name, email, country, age, score, tags, active := record(r, id, true)
		if id > 1 {
			w.str(",\n")
		}
		created := epoch.Add(-time.Duration(r.IntN(1000*24)) * time.Hour).Format(time.RFC3339)
		tagJSON := make([]string, len(tags))
		for i, t := range tags {
			tagJSON[i] = strconv.Quote(t)
		}
		w.str(fmt.Sprintf(`{"id":%d,"name":%s,"email":%q,"country":%q,"age":%d,"score":%s,"tags":[%s],"active":%t,"createdAt":%q}`,
			id, jsonQuote(name), email, country, age, strconv.FormatFloat(score, 'f', -1, 64), strings.Join(tagJSON, ","), active, created))
	}
	w.str("]\n")
	return nil
}

// jsonQuote quotes s as a JSON string, keeping non-ASCII characters as they are.
func jsonQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func genRecordsCSV(r *rand.Rand, bw *bufio.Writer, size int64) error {
	w := &countingWriter{w: bw}
	w.str("id,name,email,country,age,score,active\n")
	for id := 1; w.n < size || id == 1; id++ {
		name, email, country, age, score, _, active := record(r, id, false)
		w.str(fmt.Sprintf("%d,%s,%s,%s,%d,%s,%t\n", id, name, email, country, age, strconv.FormatFloat(score, 'f', -1, 64), active))
	}
	return nil
}

func genLog(r *rand.Rand, bw *bufio.Writer, size int64) error {
	w := &countingWriter{w: bw}
	t := epoch
	for w.n < size {
		t = t.Add(time.Duration(r.IntN(2000)) * time.Millisecond)
		path := pick(r, pathBases)
		if r.IntN(2) == 0 {
			path += "/" + strconv.Itoa(r.IntN(5000))
		}
		status := []int{200, 200, 200, 200, 201, 204, 301, 400, 404, 500, 503}[r.IntN(11)]
		latency := 1 + r.IntN(40) + r.IntN(40)*r.IntN(20)
		ip := fmt.Sprintf("10.%d.%d.%d", r.IntN(4), r.IntN(256), r.IntN(256))
		user := strings.ToLower(pick(r, firstNames)) + strconv.Itoa(r.IntN(300))
		w.str(fmt.Sprintf("%s %s [%s] %s %s %d %dms ip=%s user=%s %s\n", t.Format("2006-01-02T15:04:05.000Z"),
			pick(r, levels), pick(r, services), pick(r, methods), path, status, latency, ip, user, pick(r, messages)))
	}
	return nil
}

func genProse(r *rand.Rand, bw *bufio.Writer, size int64) error {
	w := &countingWriter{w: bw}
	for section := 1; w.n < size; section++ {
		w.str(fmt.Sprintf("## Section %d\n\n", section))
		for range 1 + r.IntN(4) {
			lang := pick(r, proseWords)
			sep := " "
			if lang[0] == "東京" {
				sep = ""
			}
			var words []string
			for range 20 + r.IntN(60) {
				words = append(words, pick(r, lang))
			}
			para := strings.Join(words, sep)
			if sep == " " {
				first, n := utf8.DecodeRuneInString(para)
				para = string(unicode.ToUpper(first)) + para[n:] + "."
			} else {
				para += "。"
			}
			w.str(para + "\n\n")
		}
	}
	return nil
}
