package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A saved check envelope naming a word this uptide does not know is an
// error that names the file and the word, never a report whose verdict
// reads as empty (nothing analyzed) or one silently dropped.
func TestReadCheckEnvelopeRefusesUnknownWords(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(`{"schemaVersion": 1, "command": "check", "data": `+data+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	for _, tc := range []struct{ name, data, want string }{
		{"verdict.json", `{"packages": [{"package": "zod", "status": "analyzed", "verdict": "broken"}]}`, `unknown verdict "broken"`},
		{"status.json", `{"packages": [{"package": "zod", "status": "done"}]}`, `unknown analysis status "done"`},
		{"update.json", `{"packages": [{"package": "zod", "status": "analyzed", "update": "major x2"}]}`, `unknown update kind "major x2"`},
		{"failed.json", `null`, "holds no check report"},
	} {
		file := write(tc.name, tc.data)
		rep, err := readCheckEnvelope(file)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: report %v, error %v; want one naming the file and %q", tc.name, rep, err, tc.want)
		}
	}
	good := write("good.json", `{"packages": [{"package": "zod", "status": "analyzed", "verdict": "breaking", "update": "major ×2"}]}`)
	rep, err := readCheckEnvelope(good)
	if err != nil || len(rep.Packages) != 1 || rep.Packages[0].Verdict != "breaking" || rep.Packages[0].Update.Majors != 2 {
		t.Fatalf("a good envelope: %+v, %v", rep, err)
	}
}
