package verify

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// serviceModules are the client libraries whose import in a setup file
// means it connects to a service, with what that service is.
var serviceModules = map[string]string{
	"pg":             "a database",
	"postgres":       "a database",
	"mysql2":         "a database",
	"mongodb":        "a database",
	"mongoose":       "a database",
	"@prisma/client": "a database",
	"redis":          "a cache",
	"ioredis":        "a cache",
	"amqplib":        "a queue",
	"kafkajs":        "a queue",
}

var serviceEnvRE = regexp.MustCompile(`\b(DATABASE_URL|REDIS_URL)\b`)

var serviceEnv = map[string]string{"DATABASE_URL": "a database", "REDIS_URL": "a cache"}

// mockCallRE finds the modules a test file or setup replaces with mocks:
// jest.mock, jest.doMock, jest.unstable_mockModule, vi.mock, vi.doMock.
var mockCallRE = regexp.MustCompile(`\b(?:jest|vi)\s*\.\s*(?:mock|doMock|unstable_mockModule)\s*\(\s*['"` + "`" + `]([^'"` + "`" + `\n]+)['"` + "`" + `]`)

// mockLibraries build mocks from a client's type (mockDeep<PrismaClient>()):
// a file importing one imports the clients it names for their types.
var mockLibraries = map[string]bool{"jest-mock-extended": true, "vitest-mock-extended": true, "@golevelup/ts-jest": true, "@golevelup/ts-vitest": true}

// sourceNeeds says what service the source at file (slash, relative to
// root) connects to, following its relative imports a short way; "" when
// none. A client the file mocks (jest.mock('@prisma/client'), vi.mock('pg'))
// is no service, nor is a module it mocks followed, nor a client a file
// builds mocks of with a mocking library: such a file replaces the service,
// it does not reach it.
func sourceNeeds(root, file string) serviceNeed {
	seen := map[string]bool{file: true}
	queue := []string{file}
	for depth := 0; depth < 3 && len(queue) > 0; depth++ {
		var next []string
		for _, f := range queue {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
			if err != nil {
				continue
			}
			src := string(data)
			mocked := map[string]bool{}
			for _, m := range mockCallRE.FindAllStringSubmatch(src, -1) {
				mocked[m[1]] = true
			}
			imports := runtimeSpecifiers(src)
			mocksFromTypes := false
			for _, s := range imports {
				if mockLibraries[packageOf(s)] {
					mocksFromTypes = true
				}
			}
			for _, s := range imports {
				if mocked[s] {
					continue
				}
				mod := packageOf(s)
				if what, ok := serviceModules[mod]; ok && !mocked[mod] && !mocksFromTypes {
					return serviceNeed{what, "imports " + mod}
				}
				if r := resolveRelative(root, f, s); r != "" && !seen[r] {
					seen[r] = true
					next = append(next, r)
				}
			}
			if m := serviceEnvRE.FindStringSubmatch(src); m != nil {
				return serviceNeed{serviceEnv[m[1]], "reads " + m[1]}
			}
		}
		queue = next
	}
	return serviceNeed{}
}

// serviceNeed is the service a source connects to ("a database") and how
// it shows ("imports pg"); the zero value is none.
type serviceNeed struct{ what, how string }

// String is the need in words: "a database (imports pg)", "" for none.
func (n serviceNeed) String() string {
	if n.what == "" {
		return ""
	}
	return n.what + " (" + n.how + ")"
}

// packageOf is the package name of a bare specifier ("pg/lib/x" → "pg").
func packageOf(spec string) string {
	spec = strings.TrimPrefix(spec, "node:")
	parts := strings.Split(spec, "/")
	if strings.HasPrefix(spec, "@") && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

var testNameRE = regexp.MustCompile(`\.(test|spec)\.[cm]?[jt]sx?$`)

// serviceByName says why a test file (slash, relative to root) is an
// integration or end-to-end test from its name or directory alone; "" when
// it is not one.
func serviceByName(file string) string {
	base := path.Base(file)
	switch {
	case strings.Contains(base, ".integration."):
		return "integration test (by name)"
	case strings.Contains(base, ".e2e."):
		return "end-to-end test (by name)"
	}
	for _, seg := range strings.Split(path.Dir(file), "/") {
		switch seg {
		case "integration", "__integration__":
			return "integration test (in " + seg + "/)"
		case "e2e":
			return "end-to-end test (in e2e/)"
		}
	}
	return ""
}

// skipDirs are never walked for test files.
var skipDirs = map[string]bool{"node_modules": true, ".git": true, "dist": true, "build": true, "coverage": true, ".next": true, ".turbo": true}

// serviceTests lists the test files below the directories (slash, relative
// to root) that need services by name or directory, sorted.
func serviceTests(root string, dirs []string) []ServiceSkip {
	found := map[string]string{}
	for _, d := range dirs {
		start := filepath.Join(root, filepath.FromSlash(d))
		_ = filepath.WalkDir(start, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() {
				if p != start && (skipDirs[e.Name()] || strings.HasPrefix(e.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return nil
			}
			rel = filepath.ToSlash(rel)
			if !isSource(rel) || strings.Contains(path.Base(rel), ".config.") {
				return nil
			}
			if why := serviceByName(rel); why != "" && (testNameRE.MatchString(rel) || strings.Contains(rel, "__tests__/")) {
				found[rel] = why
			}
			return nil
		})
	}
	out := make([]ServiceSkip, 0, len(found))
	for f, why := range found {
		out = append(out, ServiceSkip{File: f, Needs: why})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
