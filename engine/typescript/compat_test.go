package typescript

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// olderResolution rewrites the repository's tsconfigs for a compiler before
// 5.0, which has no moduleResolution "bundler": "node" resolves the
// fixtures' packages (types fields, no exports maps) the same way.
func olderResolution(version string) func(t *testing.T, repo string) {
	major, _ := strconv.Atoi(strings.SplitN(version, ".", 2)[0])
	if major >= 5 {
		return nil
	}
	return func(t *testing.T, repo string) {
		err := filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasPrefix(d.Name(), "tsconfig") || !strings.HasSuffix(d.Name(), ".json") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, []byte(strings.ReplaceAll(string(b), `"bundler"`, `"node"`)), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Signal B on every supported compiler: the same cases, the same answers,
// and the same pre-existing errors as that compiler's own tsc.
func TestCompileEveryTypeScript(t *testing.T) {
	pick := map[string]bool{
		"removed parameter and property; the target's dependency fetched at its range": true,
		"same through TypeScript 4.x's resolver hooks":                                 true,
		"scoped to the usage files":                                                    true,
		"files that declare globals are in every scoped program":                       true,
		"invalid tsconfig: overlay skipped, and said so":                               true,
		"declarations the compiler cannot parse are the finding":                       true,
		"skipLibCheck off: an error in the target's declarations is the build's":       true,
		"project references one level down, each with its own options":                 true,
	}
	var cases []compileCase
	for _, tt := range compileCases() {
		if pick[tt.name] {
			cases = append(cases, tt)
			delete(pick, tt.name)
		}
	}
	if len(pick) != 0 {
		t.Fatalf("no TestCompile case named %v", pick)
	}
	for _, v := range supportedVersions {
		t.Run(v, func(t *testing.T) {
			a := New(cachedCompiler(t, v), Options{NoSurfaceCache: true})
			t.Cleanup(func() { a.Close() })
			for _, tt := range cases {
				t.Run(tt.name, func(t *testing.T) { runCompileCase(t, a, tt, olderResolution(v)) })
			}
		})
	}
}
