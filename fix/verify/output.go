package verify

import (
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

// counts are the numbers a runner printed; -1 is unknown.
type counts struct{ passed, failed, skipped, total int }

var (
	vitestTestsRE = regexp.MustCompile(`(?m)^\s*Tests\s+(.+?)\s*\((\d+)\)\s*$`)
	jestTestsRE   = regexp.MustCompile(`(?m)^\s*Tests:\s+(.+?)\s*$`)
	partRE        = regexp.MustCompile(`(\d+)\s+(passed|failed|skipped|todo|pending|total)`)
	nodeCountRE   = regexp.MustCompile(`(?m)^\s*(?:#|ℹ)\s+(tests|pass|fail|skipped|todo|cancelled)\s+(\d+)\s*$`)
)

// parseCounts reads the summary line of vitest ("Tests  3 passed | 1 failed
// (4)"), jest ("Tests:       1 failed, 3 passed, 4 total") or node --test
// ("# pass 3", "# fail 1"); every number it cannot find is -1.
func parseCounts(out string) counts {
	out = stripANSI(out)
	c := counts{-1, -1, -1, -1}
	line := ""
	if m := vitestTestsRE.FindAllStringSubmatch(out, -1); m != nil {
		last := m[len(m)-1]
		line = last[1]
		c.total, _ = strconv.Atoi(last[2])
	} else if m := jestTestsRE.FindAllStringSubmatch(out, -1); m != nil {
		line = m[len(m)-1][1]
	}
	if line != "" {
		c.passed, c.failed, c.skipped = 0, 0, 0
		for _, p := range partRE.FindAllStringSubmatch(line, -1) {
			n, _ := strconv.Atoi(p[1])
			switch p[2] {
			case "passed":
				c.passed = n
			case "failed":
				c.failed = n
			case "skipped", "todo", "pending":
				c.skipped += n
			case "total":
				c.total = n
			}
		}
		if c.total < 0 {
			c.total = c.passed + c.failed + c.skipped
		}
		return c
	}
	m := nodeCountRE.FindAllStringSubmatch(out, -1)
	if m == nil {
		return c
	}
	c.passed, c.failed, c.skipped, c.total = 0, 0, 0, 0
	for _, p := range m {
		n, _ := strconv.Atoi(p[2])
		switch p[1] {
		case "tests":
			c.total = n
		case "pass":
			c.passed = n
		case "fail", "cancelled":
			c.failed += n
		case "skipped", "todo":
			c.skipped += n
		}
	}
	return c
}

var noTestsRE = regexp.MustCompile(`(?m)No test files found|No tests found|No test suite found`)

// foundNoTests reports a run whose runner found nothing to run.
func foundNoTests(out string, c counts) bool {
	if noTestsRE.MatchString(stripANSI(out)) {
		return true
	}
	return c.total == 0 && c.failed <= 0
}

var (
	failLineRE    = regexp.MustCompile(`(?m)^\s*FAIL\s+(.+)$`)
	tapNotOkRE    = regexp.MustCompile(`^(\s*)not ok \d+`)
	tapLocationRE = regexp.MustCompile(`^\s*location:\s*'(.+?)(?::\d+:\d+)?'\s*$`)
	specAtRE      = regexp.MustCompile(`(?m)^\s*test at (.+?):\d+:\d+\s*$`)
	pathTokenRE   = regexp.MustCompile(`^[^\s>]*\.[cm]?[jt]sx?$`)
)

// failingFiles are the test files a failing run names (slash, relative to
// root), read from vitest and jest FAIL lines and node --test locations.
// ok is false when a failure was seen that names no file: such a run is
// never re-run.
func failingFiles(root, dir, out string) (files []string, ok bool) {
	out = stripANSI(out)
	seen := map[string]bool{}
	addFile := func(p string) {
		if f := normalizeFile(root, dir, p); f != "" && !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	ok = true
	for _, m := range failLineRE.FindAllStringSubmatch(out, -1) {
		found := false
		for _, tok := range strings.Fields(m[1]) {
			tok = strings.Trim(tok, "|")
			if pathTokenRE.MatchString(tok) {
				addFile(tok)
				found = true
				break
			}
		}
		if !found {
			ok = false
		}
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		m := tapNotOkRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		found := false
		for j := i + 1; j < len(lines) && j < i+40; j++ {
			if strings.TrimSpace(lines[j]) == "..." {
				break
			}
			if lm := tapLocationRE.FindStringSubmatch(lines[j]); lm != nil {
				addFile(lm[1])
				found = true
				break
			}
		}
		if !found {
			ok = false
		}
	}
	for _, m := range specAtRE.FindAllStringSubmatch(out, -1) {
		addFile(m[1])
	}
	return files, ok
}

// normalizeFile turns a path a runner printed (absolute, or relative to
// the run's directory) into a slash path relative to root; "" when it is
// outside.
func normalizeFile(root, dir, p string) string {
	var abs string
	if filepath.IsAbs(p) {
		abs = p
	} else {
		abs = filepath.Join(root, filepath.FromSlash(dir), filepath.FromSlash(p))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		// The runner may print real paths of a root reached through a
		// symbolic link (/tmp on macOS).
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil || realRoot == root {
			return ""
		}
		return normalizeFile(realRoot, dir, p)
	}
	return path.Clean(filepath.ToSlash(rel))
}
