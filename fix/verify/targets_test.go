package verify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindServices(t *testing.T) {
	root := writeTree(t, map[string]string{
		"package.json":                                  `{"name":"root"}`,
		"vitest.config.ts":                              "export default {}",
		"packages/api/package.json":                     `{"name":"api"}`,
		"packages/api/src/users.test.ts":                "test('x', () => {})",
		"packages/api/test/db.integration.test.ts":      "import { Client } from 'pg'",
		"packages/api/.env.test":                        "# the test database\nexport DATABASE_URL=\"postgres://app:s3cret@localhost:5432/app_test\"\nLOG_LEVEL=debug\nAPI_TOKEN=abc\n",
		".env":                                          "CACHE_HOST=localhost:6379 # local redis\nQUEUE=amqp://guest:guest@mq:5672/?password=guest\n",
		"packages/web/package.json":                     `{"name":"web"}`,
		"packages/web/e2e/login.spec.ts":                "test('login', () => {})",
		"packages/other/test/store.integration.test.ts": "",
	})
	env := []string{"PATH=/usr/bin", "REDIS_URL=redis://:hunter2@cache:6379/0", "HOME=/root", "MONGO_URI="}
	got, err := FindServices(root, nil, []string{"packages/api", "packages/web"}, env)
	if err != nil {
		t.Fatal(err)
	}
	wantNeeds := []ServiceSkip{
		{File: "packages/api/test/db.integration.test.ts", Needs: "integration test (by name)"},
		{File: "packages/web/e2e/login.spec.ts", Needs: "end-to-end test (in e2e/)"},
	}
	if d := cmp.Diff(wantNeeds, got.Needs); d != "" {
		t.Errorf("needs (-want +got):\n%s", d)
	}
	wantTargets := []Target{
		{Name: "CACHE_HOST", Value: "localhost:6379", From: ".env"},
		{Name: "DATABASE_URL", Value: "postgres://app:***@localhost:5432/app_test", From: "packages/api/.env.test"},
		{Name: "QUEUE", Value: "amqp://guest:***@mq:5672/?password=***", From: ".env"},
		{Name: "REDIS_URL", Value: "redis://:***@cache:6379/0", From: "environment"},
	}
	if d := cmp.Diff(wantTargets, got.Targets); d != "" {
		t.Errorf("targets (-want +got):\n%s", d)
	}
	for _, tg := range got.Targets {
		for _, secret := range []string{"s3cret", "hunter2", "guest@", "abc"} {
			if strings.Contains(tg.Value, secret) {
				t.Errorf("target %s shows a credential: %s", tg.Name, tg.Value)
			}
		}
	}
	if got.Empty() {
		t.Error("services found, but Empty says none")
	}

	quiet := writeTree(t, map[string]string{"package.json": `{"name":"q","scripts":{"test":"node --test"}}`, "a.test.js": ""})
	none, err := FindServices(quiet, nil, []string{"."}, []string{"PATH=/usr/bin"})
	if err != nil || !none.Empty() || len(none.Targets) != 0 {
		t.Errorf("a repository without services: %+v %v", none, err)
	}
}

func TestMaskCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:p@h/db":                   "postgres://u:***@h/db",
		"postgres://u@h/db":                     "postgres://u@h/db",
		"mysql://root:p%40ss@db:3306/app?ssl=1": "mysql://root:***@db:3306/app?ssl=1",
		"Server=db;User Id=sa;Password=x;":      "Server=db;User Id=sa;Password=***;",
		"localhost:6379":                        "localhost:6379",
	} {
		if got := maskCredentials(in); got != want {
			t.Errorf("maskCredentials(%q) = %q, want %q", in, got, want)
		}
	}
}
