package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// pkgJSON is the part of a package.json verification reads.
type pkgJSON struct {
	Scripts  map[string]string `json:"scripts"`
	Jest     json.RawMessage   `json:"jest"`
	Prettier json.RawMessage   `json:"prettier"`
	ESLint   json.RawMessage   `json:"eslintConfig"`
}

// readPkg reads dir/package.json; a missing one is a zero value, a broken
// one an error naming the file.
func readPkg(dir string) (pkgJSON, bool, error) {
	file := filepath.Join(dir, "package.json")
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return pkgJSON{}, false, nil
	}
	if err != nil {
		return pkgJSON{}, false, fmt.Errorf("read %s: %w", file, err)
	}
	var p pkgJSON
	if err := json.Unmarshal(data, &p); err != nil {
		return pkgJSON{}, false, fmt.Errorf("%s is not valid JSON (%v): fix the manifest and run again", file, err)
	}
	return p, true, nil
}

// npmPlaceholder is the test script npm init writes: it tests nothing.
const npmPlaceholder = `echo "Error: no test specified" && exit 1`

// testScript is the manifest's test script, empty when it has none or only
// npm's placeholder.
func (p pkgJSON) testScript() string {
	s := p.Scripts["test"]
	if s == npmPlaceholder {
		return ""
	}
	return s
}

func present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}
