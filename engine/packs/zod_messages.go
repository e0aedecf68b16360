package packs

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/uptide/uptide/engine/repo"
)

// zod 4 words its default error messages differently from zod 3
// ("Required" is "Invalid input: expected string, received undefined"), and
// no compiler sees a test or a UI that matches the old text. The places are
// found by the known zod 3 defaults (its en locale) in string literals of
// the files that import zod and of test files, and each is listed with the
// new wording where it is certain, for a human to decide.

// zodDefault is one zod 3 default message and what zod 4 says instead.
type zodDefault struct {
	re   *regexp.Regexp
	now  func(m []string) string
	what string
}

var zodDefaults = []zodDefault{
	{regexp.MustCompile(`^Required$`), func([]string) string { return `"Invalid input: expected <type>, received undefined"` }, "a missing value"},
	{regexp.MustCompile(`^Expected (\w+), received (\w+)$`), func(m []string) string { return fmt.Sprintf(`"Invalid input: expected %s, received %s"`, m[1], m[2]) }, "a value of the wrong type"},
	{regexp.MustCompile(`^Invalid (email|url|uuid|cuid|cuid2|ulid|emoji|datetime|ip|cidr|base64|nanoid)$`), func([]string) string {
		return `"Invalid <format>" with the format's name (zod 4: "Invalid email address", "Invalid URL", "Invalid UUID")`
	}, "a string format"},
	{regexp.MustCompile(`^(String|Array|Set|Number|BigInt|Date) must (contain|be) (at least|greater than|more than)`), func([]string) string { return `"Too small: expected …"` }, "a lower bound"},
	{regexp.MustCompile(`^(String|Array|Set|Number|BigInt|Date) must (contain|be) (at most|less than|fewer than)`), func([]string) string { return `"Too big: expected …"` }, "an upper bound"},
	{regexp.MustCompile(`^Invalid enum value\. Expected `), func([]string) string { return `"Invalid option: expected one of …"` }, "an enum value"},
	{regexp.MustCompile(`^Invalid literal value, expected `), func([]string) string { return `"Invalid input: expected …"` }, "a literal"},
	{regexp.MustCompile(`^Unrecognized key\(s\) in object: `), func([]string) string { return `"Unrecognized key: …" ("Unrecognized keys: …" for several)` }, "unknown keys"},
}

var (
	// stringLit is a one-line string literal of any quote.
	stringLit = regexp.MustCompile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"|'((?:[^'\\\\\\n]|\\\\.)*)'|`((?:[^`\\\\$]|\\\\.)*)`")
)

// isTestFile: a file of a test suite by its name or directory.
func isTestFile(file string) bool {
	base := path.Base(file)
	return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.Contains("/"+file, "/__tests__/") || strings.Contains("/"+file, "/test/") || strings.Contains("/"+file, "/tests/")
}

// zodDefaultMessages lists the zod 3 default messages a file that imports
// zod, or a test file, has as string literals.
func zodDefaultMessages(file, content string) []string {
	if !repo.IsSource(file) || strings.Contains("/"+file, "/node_modules/") {
		return nil
	}
	if !isTestFile(file) && !loadsZod(content) {
		return nil
	}
	var out []string
	for i, line := range strings.Split(content, "\n") {
		for _, lit := range stringLit.FindAllStringSubmatch(line, -1) {
			text := lit[1] + lit[2] + lit[3]
			for _, d := range zodDefaults {
				if m := d.re.FindStringSubmatch(text); m != nil {
					out = append(out, fmt.Sprintf("%s:%d: %q is zod 3's default message for %s; zod 4 says %s: a test or a check matching the old text needs the new one",
						file, i+1, text, d.what, d.now(m)))
					break
				}
			}
		}
	}
	return out
}

// loadsZod: the text loads zod or one of its subpaths (import, require,
// import(), export … from), by the importers scan's own reading.
func loadsZod(content string) bool {
	found := false
	repo.ScanLoads([]byte(content), func(spec string, _ bool) {
		found = found || spec == "zod" || strings.HasPrefix(spec, "zod/")
	})
	return found
}
