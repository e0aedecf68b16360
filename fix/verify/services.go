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

// serviceEnvRE finds the names of settings that locate a service:
// DATABASE_URL, MONGODB_URL, TEST_DB_HOST, REDIS_URI, AMQP_URL. A source
// that names one reads where the service is (process.env.MONGODB_URL, or a
// config schema listing MONGODB_URL); it says nothing of a value it only
// passes on.
var serviceEnvRE = regexp.MustCompile(`\b(?:[A-Z0-9]+_)*(DATABASE|DB|MONGO|MONGODB|POSTGRES|POSTGRESQL|PG|MYSQL|MARIADB|REDIS|AMQP|RABBITMQ|KAFKA)(?:_[A-Z0-9]+)*_(?:URL|URI|DSN|HOST)\b`)

// serviceEnv is what service a setting's name locates, by its service word.
var serviceEnv = map[string]string{"REDIS": "a cache", "AMQP": "a queue", "RABBITMQ": "a queue", "KAFKA": "a queue"}

// connectRE finds a call that opens a client's connection or builds a
// client that does (mongoose.connect(url), new PrismaClient(), new
// pg.Pool(), createClient(), postgres(url)): in a source that imports a
// service's client, it tells a connection from a use of the client's
// helpers (mongoose.Schema, mongoose.createConnection() with no address).
var connectRE = regexp.MustCompile(`\.\s*connect\s*\(|\bcreateClient\s*\(|\bcreateConnection\s*\(\s*[^)\s]|\bcreatePool\s*\(|\bpostgres\s*\(|\bnew\s+(?:[A-Za-z_$][\w$]*\s*\.\s*)?(?:PrismaClient|MongoClient|Client|Pool|Redis|IORedis|Cluster|Kafka)\s*\(`)

// mockCallRE finds the modules a test file or setup replaces with mocks:
// jest.mock, jest.doMock, jest.unstable_mockModule, vi.mock, vi.doMock.
var mockCallRE = regexp.MustCompile(`\b(?:jest|vi)\s*\.\s*(?:mock|doMock|unstable_mockModule)\s*\(\s*['"` + "`" + `]([^'"` + "`" + `\n]+)['"` + "`" + `]`)

// mockLibraries build mocks from a client's type (mockDeep<PrismaClient>()):
// a file importing one imports the clients it names for their types.
var mockLibraries = map[string]bool{"jest-mock-extended": true, "vitest-mock-extended": true, "@golevelup/ts-jest": true, "@golevelup/ts-vitest": true}

// mocked are the modules replaced with mocks for a test: the bare
// specifiers (as written) and the repository's files (slash, relative to
// the root) that a jest.mock or vi.mock names. A mock holds for the whole
// test file's module registry, whichever module declared it.
type mocked struct{ specs, files map[string]bool }

func newMocked() mocked { return mocked{specs: map[string]bool{}, files: map[string]bool{}} }

// add records the mocks src, the text of file, declares.
func (m mocked) add(root, file, src string) {
	for _, c := range mockCallRE.FindAllStringSubmatch(src, -1) {
		if r := resolveRelative(root, file, c[1]); r != "" {
			m.files[r] = true
		} else {
			m.specs[c[1]] = true
		}
	}
}

func (m mocked) clone() mocked {
	out := newMocked()
	for k := range m.specs {
		out.specs[k] = true
	}
	for k := range m.files {
		out.files[k] = true
	}
	return out
}

// setupMocks are the mocks the setup files of c (run in every test's
// registry, unlike a global setup) declare.
func setupMocks(root string, c *runnerConfig) mocked {
	m := newMocked()
	if c == nil {
		return m
	}
	for _, s := range c.setups(root) {
		if s.File == "" || !strings.HasPrefix(s.Key, "setupFiles") {
			continue
		}
		if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.File))); err == nil {
			m.add(root, s.File, string(data))
		}
	}
	return m
}

// sourceNeeds says what service the setup at file (slash, relative to
// root) connects to: see needsOf; importing a client is enough for a setup.
func sourceNeeds(root, file string) serviceNeed {
	return needsOf(root, file, newMocked(), true)
}

// testNeeds says what service the test file at file connects to, with
// the mocks its setup files declare: see needsOf. A test file may import a
// client only for its helpers (mongoose.Schema in a unit test of a schema
// plugin), so for it the client counts only where it connects.
func testNeeds(root, file string, m mocked) serviceNeed {
	return needsOf(root, file, m, false)
}

// needsOf says what service the source at file (slash, relative to root)
// connects to, following its relative imports two levels; "" when none. A
// source connects when it names a setting that locates a service
// (MONGODB_URL), or imports a service's client and, unless byImport,
// connects with it. A client mocked (jest.mock('@prisma/client'),
// vi.mock('pg'), here or in m) is no service, nor is a module mocked
// followed, nor a client a file builds mocks of with a mocking library:
// such a file replaces the service, it does not reach it.
func needsOf(root, file string, m mocked, byImport bool) serviceNeed {
	m = m.clone()
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
			m.add(root, f, src)
			where := ""
			if f != file {
				where = " in " + f
			}
			imports := runtimeSpecifiers(src)
			mocksFromTypes := false
			for _, s := range imports {
				if mockLibraries[packageOf(s)] {
					mocksFromTypes = true
				}
			}
			for _, s := range imports {
				r := resolveRelative(root, f, s)
				if m.specs[s] || m.files[r] {
					continue
				}
				mod := packageOf(s)
				if what, ok := serviceModules[mod]; ok && !m.specs[mod] && !mocksFromTypes {
					if byImport {
						return serviceNeed{what, "imports " + mod + where}
					}
					if connectRE.MatchString(src) {
						return serviceNeed{what, "connects with " + mod + where}
					}
				}
				if r != "" && !seen[r] {
					seen[r] = true
					next = append(next, r)
				}
			}
			if c := serviceEnvRE.FindStringSubmatch(src); c != nil {
				what := serviceEnv[c[1]]
				if what == "" {
					what = "a database"
				}
				return serviceNeed{what, "reads " + c[0] + where}
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
// to root) that need services, sorted: by name or directory, else by what
// they or the files they import read or connect to (testNeeds, with the
// mocks m of the setup files every test runs).
func serviceTests(root string, dirs []string, m mocked) []ServiceSkip {
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
			if !testNameRE.MatchString(rel) && !strings.Contains(rel, "__tests__/") {
				return nil
			}
			if why := serviceByName(rel); why != "" {
				found[rel] = why
			} else if need := testNeeds(root, rel, m); need.what != "" {
				found[rel] = need.String()
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
