package modformat

import (
	"bufio"
	"bytes"
	"fmt"
	"iter"
	"strings"
)

// versionLine is one version a file names, with its line.
type versionLine struct {
	version string
	written string
	line    int
}

// settingLines are a version file's lines, numbered from 1, without their
// comments (from #) and a leading byte-order mark; scanErr says why
// reading stopped early (a line over 1 MiB).
func settingLines(data []byte) (lines iter.Seq2[int, string], scanErr func() error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	return func(yield func(int, string) bool) {
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if i := strings.Index(line, "#"); i >= 0 {
				line = line[:i]
			}
			if !yield(n, strings.TrimPrefix(line, "\ufeff")) {
				return
			}
		}
	}, sc.Err
}

// parseNvmrc reads .nvmrc or .node-version: the first line that is not
// blank or a comment names the version ("22", "v22.11.0", "lts/iron",
// "node"). name is used in errors only.
func parseNvmrc(name string, data []byte) (versionLine, error) {
	lines, scanErr := settingLines(data)
	for n, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		written := strings.Fields(line)[0]
		v, ok := normalizeVersion(written)
		if !ok {
			return versionLine{}, fmt.Errorf("%s:%d: %q is not a Node version (write one like 22, 22.12.0 or lts/jod)", name, n, written)
		}
		return versionLine{version: v, written: written, line: n}, nil
	}
	if err := scanErr(); err != nil {
		return versionLine{}, fmt.Errorf("%s: %v", name, err)
	}
	return versionLine{}, fmt.Errorf("%s: names no Node version: write one like 22 or 22.12.0", name)
}

// parseToolVersions reads asdf/mise's .tool-versions: the nodejs (or node)
// line's first version is the one the directory uses; later ones are
// fallbacks. found is false when the file has no Node line.
func parseToolVersions(name string, data []byte) (v versionLine, found bool, err error) {
	lines, scanErr := settingLines(data)
	for n, line := range lines {
		fields := strings.Fields(line)
		if len(fields) == 0 || (fields[0] != "nodejs" && fields[0] != "node") {
			continue
		}
		if len(fields) < 2 {
			return versionLine{}, true, fmt.Errorf("%s:%d: %s line names no version: add one, like nodejs 22.12.0", name, n, fields[0])
		}
		written := fields[1]
		v, ok := normalizeVersion(written)
		if !ok {
			return versionLine{}, true, fmt.Errorf("%s:%d: %q is not a Node version asdf can install (write one like 22.12.0)", name, n, written)
		}
		return versionLine{version: v, written: written, line: n}, true, nil
	}
	if err := scanErr(); err != nil {
		return versionLine{}, false, fmt.Errorf("%s: %v", name, err)
	}
	return versionLine{}, false, nil
}
