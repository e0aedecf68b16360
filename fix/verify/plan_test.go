package verify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/uptide/uptide/engine/model"
)

func repoOf(paths ...string) *model.Repository {
	r := &model.Repository{}
	for _, p := range append([]string{"."}, paths...) {
		r.Workspaces = append(r.Workspaces, model.Workspace{Path: p})
	}
	return r
}

const pgSetup = "import { Client } from 'pg';\nexport default async () => { const c = new Client(); await c.connect(); };\n"

func TestPlanTests(t *testing.T) {
	tests := []struct {
		name         string
		tree         map[string]string
		workspaces   []string
		files        []string
		withServices bool
		want         TestPlan
	}{
		{
			name: "own test script, pretest recorded",
			tree: map[string]string{
				"package.json":              `{"name":"root","scripts":{"test":"turbo test"}}`,
				"packages/api/package.json": `{"scripts":{"test":"node --test","pretest":"tsc -b"}}`,
				"vitest.config.ts":          "export default {}",
			},
			workspaces: []string{"packages/api"},
			files:      []string{"packages/api/src/a.ts"},
			want: TestPlan{Runs: []TestRun{{
				Workspaces: []string{"packages/api"}, Dir: "packages/api", Command: []string{"sh", "-c", "node --test"},
				Scope: "test script of packages/api", Runner: "node", Pretest: []string{"sh", "-c", "tsc -b"},
			}}},
		},
		{
			name: "nearest config in an ancestor, shared by two workspaces: one related run",
			tree: map[string]string{
				"package.json":              `{"name":"root"}`,
				"vitest.config.ts":          "export default {}",
				"packages/web/package.json": `{"name":"web"}`,
				"packages/ui/package.json":  `{"name":"ui"}`,
			},
			workspaces: []string{"packages/web", "packages/ui"},
			files:      []string{"packages/web/src/a.tsx", "packages/ui/src/b.tsx", "packages/other/c.ts"},
			want: TestPlan{Runs: []TestRun{{
				Workspaces: []string{"packages/ui", "packages/web"}, Dir: ".", Config: "vitest.config.ts",
				Command: []string{"vitest", "related", "--run", "packages/ui/src/b.tsx", "packages/web/src/a.tsx"},
				Scope:   "vitest related over 2 files (vitest.config.ts)", Runner: "vitest",
			}}},
		},
		{
			name: "own config wins over the root's; no files known runs the workspace dir",
			tree: map[string]string{
				"package.json":                 `{"name":"root","jest":{"testEnvironment":"node"}}`,
				"packages/api/package.json":    `{"name":"api"}`,
				"packages/api/jest.config.js":  "module.exports = {}",
				"packages/web/package.json":    `{"name":"web"}`,
				"packages/web/src/placeholder": "",
			},
			workspaces: []string{"packages/api", "packages/web"},
			want: TestPlan{Runs: []TestRun{
				{Workspaces: []string{"packages/api"}, Dir: "packages/api", Config: "packages/api/jest.config.js",
					Command: []string{"jest", "--ci", "--config", "jest.config.js"},
					Scope:   "jest over all its tests (packages/api/jest.config.js)", Runner: "jest"},
				{Workspaces: []string{"packages/web"}, Dir: ".", Config: "package.json",
					Command: []string{"jest", "--ci", "packages/web"},
					Scope:   "jest over packages/web (package.json)", Runner: "jest"},
			}},
		},
		{
			name: "root script when nothing closer; npm's placeholder is no script; nothing at all is no tests",
			tree: map[string]string{
				"package.json":              `{"name":"root","scripts":{"test":"node --test"}}`,
				"packages/a/package.json":   `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`,
				"packages/b/package.json":   `{}`,
				"other/package.json":        `{}`,
				"packages/a/test/x.test.js": "",
			},
			workspaces: []string{"packages/a", "packages/b"},
			want: TestPlan{Runs: []TestRun{{
				Workspaces: []string{"packages/a", "packages/b"}, Dir: ".", Command: []string{"sh", "-c", "node --test"},
				Scope: "root test script", Runner: "node",
			}}},
		},
		{
			name: "the root script runs the root's vitest over everything: no second, related run",
			tree: map[string]string{
				"package.json":                 `{"name":"root","scripts":{"test":"vitest"}}`,
				"vitest.config.ts":             "export default {}",
				"packages/plugin/package.json": `{"name":"plugin"}`,
			},
			workspaces: []string{".", "packages/plugin"},
			files:      []string{"packages/plugin/src/a.ts"},
			want: TestPlan{Runs: []TestRun{{
				Workspaces: []string{".", "packages/plugin"}, Dir: ".", Command: []string{"sh", "-c", "vitest"},
				Scope: "root test script", Runner: "vitest",
			}}},
		},
		{
			name: "a root script narrowed to a directory keeps the related run",
			tree: map[string]string{
				"package.json":                 `{"name":"root","scripts":{"test":"vitest run test/"}}`,
				"vitest.config.ts":             "export default {}",
				"packages/plugin/package.json": `{"name":"plugin"}`,
			},
			workspaces: []string{".", "packages/plugin"},
			files:      []string{"packages/plugin/src/a.ts"},
			want: TestPlan{Runs: []TestRun{
				{Workspaces: []string{"."}, Dir: ".", Command: []string{"sh", "-c", "vitest run test/"}, Scope: "root test script", Runner: "vitest"},
				{Workspaces: []string{"packages/plugin"}, Dir: ".", Config: "vitest.config.ts",
					Command: []string{"vitest", "related", "--run", "packages/plugin/src/a.ts"},
					Scope:   "vitest related over 1 file (vitest.config.ts)", Runner: "vitest"},
			}},
		},
		{
			name: "no tests",
			tree: map[string]string{
				"package.json":            `{"name":"root"}`,
				"packages/a/package.json": `{}`,
			},
			workspaces: []string{"packages/a", "."},
			want:       TestPlan{NoTests: []string{".", "packages/a"}},
		},
		{
			name: "vitest: service tests excluded and a database global setup removed by a generated config",
			tree: map[string]string{
				"package.json":                              `{"name":"root"}`,
				"vitest.config.ts":                          "export default { test: { globalSetup: ['./test/global-setup.ts'] } }",
				"test/global-setup.ts":                      "import { reset } from './db';\nexport default reset;\n",
				"test/db.ts":                                pgSetup,
				"packages/api/package.json":                 `{}`,
				"packages/api/src/users.test.ts":            "",
				"packages/api/test/db.integration.test.ts":  "",
				"packages/api/e2e/signup.spec.ts":           "",
				"packages/api/e2e/helpers.ts":               "",
				"packages/api/node_modules/x/a.e2e.test.js": "",
			},
			workspaces: []string{"packages/api"},
			files:      []string{"packages/api/src/users.ts"},
			want: TestPlan{
				Runs: []TestRun{{
					Workspaces: []string{"packages/api"}, Dir: ".", Config: "vitest.config.ts", Runner: "vitest",
					Command:   []string{"vitest", "related", "--run", "--config", "GENERATED", "packages/api/src/users.ts"},
					Scope:     "vitest related over 1 file (vitest.config.ts)",
					Generated: "GENERATED",
					Exclude:   []string{"packages/api/e2e/signup.spec.ts", "packages/api/test/db.integration.test.ts"},
					DropSetup: []string{"test/global-setup.ts"},
				}},
				Skipped: []ServiceSkip{
					{File: "packages/api/e2e/signup.spec.ts", Needs: "end-to-end test (in e2e/)"},
					{File: "packages/api/test/db.integration.test.ts", Needs: "integration test (by name)"},
					{File: "test/global-setup.ts", Needs: "global setup: a database (imports pg in test/db.ts)"},
				},
			},
		},
		{
			name: "--with-services runs the repository's configuration as it is",
			tree: map[string]string{
				"package.json":                             `{"name":"root"}`,
				"vitest.config.ts":                         "export default { test: { globalSetup: './test/db.ts' } }",
				"test/db.ts":                               pgSetup,
				"packages/api/package.json":                `{}`,
				"packages/api/test/db.integration.test.ts": "",
			},
			workspaces:   []string{"packages/api"},
			files:        []string{"packages/api/src/users.ts"},
			withServices: true,
			want: TestPlan{Runs: []TestRun{{
				Workspaces: []string{"packages/api"}, Dir: ".", Config: "vitest.config.ts", Runner: "vitest",
				Command: []string{"vitest", "related", "--run", "packages/api/src/users.ts"},
				Scope:   "vitest related over 1 file (vitest.config.ts)",
			}}},
		},
		{
			name: "jest with a global setup that reads DATABASE_URL: nothing runs",
			tree: map[string]string{
				"package.json":                       `{"name":"root"}`,
				"packages/api/package.json":          `{}`,
				"packages/api/jest.config.js":        "module.exports = { globalSetup: '<rootDir>/test/setup.js' }",
				"packages/api/test/setup.js":         "module.exports = async () => { await fetch(process.env.DATABASE_URL) }",
				"packages/api/src/users.test.js":     "",
				"packages/web/package.json":          `{}`,
				"packages/web/jest.config.js":        "module.exports = {}",
				"packages/web/src/page.e2e.test.tsx": "",
			},
			workspaces: []string{"packages/api", "packages/web"},
			files:      []string{"packages/api/src/users.js", "packages/web/src/page.tsx"},
			want: TestPlan{
				Runs: []TestRun{{
					Workspaces: []string{"packages/web"}, Dir: "packages/web", Config: "packages/web/jest.config.js", Runner: "jest",
					Command: []string{"jest", "--ci", "--config", "jest.config.js", "--testPathIgnorePatterns=/node_modules/",
						`--testPathIgnorePatterns=src/page\.e2e\.test\.tsx`, "--findRelatedTests", "src/page.tsx"},
					Scope: "jest related over 1 file (packages/web/jest.config.js)",
				}},
				Skipped: []ServiceSkip{
					{File: "packages/api/test/setup.js", Needs: "global setup: a database (reads DATABASE_URL)"},
					{File: "packages/web/src/page.e2e.test.tsx", Needs: "end-to-end test (by name)"},
				},
				NotRun: []string{"jest config packages/api/jest.config.js has a global setup (packages/api/test/setup.js) that connects to a database, which cannot be taken out: nothing runs without --with-services"},
			},
		},
		{
			name: "a vitest workspace file with a service setup: nothing runs",
			tree: map[string]string{
				"package.json":        `{"name":"root"}`,
				"vitest.workspace.ts": "export default [{ test: { setupFiles: ['./setup/redis.ts'] } }]",
				"setup/redis.ts":      "import Redis from 'ioredis';\nexport const r = new Redis();\n",
			},
			workspaces: []string{"."},
			files:      []string{"src/a.ts"},
			want: TestPlan{
				Skipped: []ServiceSkip{{File: "setup/redis.ts", Needs: "setup file: a cache (imports ioredis)"}},
				NotRun:  []string{"vitest workspace file vitest.workspace.ts has a setup file (setup/redis.ts) that connects to a cache, which cannot be taken out: nothing runs without --with-services"},
			},
		},
		{
			name: "a plain test script with service tests it cannot exclude: not run",
			tree: map[string]string{
				"package.json":                             `{"name":"root"}`,
				"packages/api/package.json":                `{"scripts":{"test":"node --test"}}`,
				"packages/api/test/integration/db.test.js": "",
				"packages/api/test/unit.test.js":           "",
			},
			workspaces: []string{"packages/api"},
			want: TestPlan{
				Skipped: []ServiceSkip{{File: "packages/api/test/integration/db.test.js", Needs: "integration test (in integration/)"}},
				NotRun:  []string{"test script of packages/api runs its tests itself, and 1 test file needs services (packages/api/test/integration/db.test.js), which its script is not one jest or vitest command to leave out of: nothing runs without --with-services"},
			},
		},
		{
			name: "a root jest script: the test file that needs services is left out of it, the rest run",
			tree: map[string]string{
				"package.json": `{"name":"root","scripts":{"test":"jest --coverage"}}`,
				"src/tests/services/user.service.test.ts": "jest.mock('@prisma/client');\nimport { PrismaClient } from '@prisma/client';\n",
				"src/tests/db.integration.test.ts":        "import { PrismaClient } from '@prisma/client';\n",
			},
			workspaces: []string{"."},
			want: TestPlan{
				Runs: []TestRun{{
					Workspaces: []string{"."}, Dir: ".", Runner: "jest", Scope: "root test script",
					Command: []string{"sh", "-c", `jest --coverage --testPathIgnorePatterns=/node_modules/ '--testPathIgnorePatterns=src/tests/db\.integration\.test\.ts'`},
				}},
				Skipped: []ServiceSkip{{File: "src/tests/db.integration.test.ts", Needs: "integration test (by name)"}},
			},
		},
		{
			// node-express-boilerplate's shape: unit tests that reach the
			// database only through a config module that reads MONGODB_URL,
			// or a helper that connects with mongoose, fail without one as
			// surely as the integration tests; those that use mongoose's
			// schema helpers, or mock what connects, run.
			name: "a root jest script: unit tests reading a database's address or connecting through their imports are left out",
			tree: map[string]string{
				"package.json":         `{"name":"root","scripts":{"test":"jest -i --colors"}}`,
				"jest.config.js":       "module.exports = { testEnvironment: 'node' };\n",
				"src/config/config.js": "const Joi = require('joi');\nconst schema = Joi.object().keys({ MONGODB_URL: Joi.string().required() });\nconst { value: env } = schema.validate(process.env);\nmodule.exports = { mongoose: { url: env.MONGODB_URL } };\n",
				"src/config/roles.js":  "module.exports = { roles: ['user', 'admin'] };\n",
				"src/models/index.js":  "module.exports.User = require('./user.model');\n",
				"src/models/user.model.js": "const mongoose = require('mongoose');\nconst { roles } = require('../config/roles');\n" +
					"module.exports = mongoose.model('User', mongoose.Schema({ role: { type: String, enum: roles } }));\n",
				"src/models/plugins/toJSON.plugin.js":               "module.exports = (schema) => schema;\n",
				"tests/utils/setupTestDB.js":                        "const mongoose = require('mongoose');\nconst config = require('../../src/config/config');\nmodule.exports = () => beforeAll(() => mongoose.connect(config.mongoose.url));\n",
				"tests/integration/user.test.js":                    "const setupTestDB = require('../utils/setupTestDB');\n",
				"tests/unit/middlewares/error.test.js":              "const mongoose = require('mongoose');\nconst config = require('../../../src/config/config');\n",
				"tests/unit/models/plugins/paginate.plugin.test.js": "const mongoose = require('mongoose');\nconst setupTestDB = require('../../../utils/setupTestDB');\n",
				"tests/unit/models/plugins/toJSON.plugin.test.js":   "const mongoose = require('mongoose');\nconst toJSON = require('../../../../src/models/plugins/toJSON.plugin');\nconst connection = mongoose.createConnection();\n",
				"tests/unit/models/user.model.test.js":              "const { User } = require('../../../src/models');\n",
				"tests/unit/config.test.js":                         "jest.mock('../../src/config/config');\nconst config = require('../../src/config/config');\n",
			},
			workspaces: []string{"."},
			want: TestPlan{
				Runs: []TestRun{{
					Workspaces: []string{"."}, Dir: ".", Runner: "jest", Scope: "root test script",
					Command: []string{"sh", "-c", `jest -i --colors --testPathIgnorePatterns=/node_modules/ '--testPathIgnorePatterns=tests/integration/user\.test\.js' '--testPathIgnorePatterns=tests/unit/middlewares/error\.test\.js' '--testPathIgnorePatterns=tests/unit/models/plugins/paginate\.plugin\.test\.js'`},
				}},
				Skipped: []ServiceSkip{
					{File: "tests/integration/user.test.js", Needs: "integration test (in integration/)"},
					{File: "tests/unit/middlewares/error.test.js", Needs: "a database (reads MONGODB_URL in src/config/config.js)"},
					{File: "tests/unit/models/plugins/paginate.plugin.test.js", Needs: "a database (connects with mongoose in tests/utils/setupTestDB.js)"},
				},
			},
		},
		{
			// The Prisma documentation's pattern: the test mocks the client
			// the service it tests builds; a setup file mocks another module
			// for every test.
			name: "vitest: a client mocked by the test or a setup file is no service",
			tree: map[string]string{
				"package.json":      `{"name":"root"}`,
				"vitest.config.ts":  "export default { test: { setupFiles: ['./test/setup.ts'] } }",
				"test/setup.ts":     "vi.mock('../src/cache', () => ({ get: async () => null }));\n",
				"src/prisma.ts":     "import { PrismaClient } from '@prisma/client';\nexport const prisma = new PrismaClient();\n",
				"src/cache.ts":      "import { createClient } from 'redis';\nexport const client = createClient({ url: process.env.REDIS_URL });\n",
				"src/users.ts":      "import { prisma } from './prisma';\nimport { get } from './cache';\nexport const find = (id: string) => prisma.user.findUnique({ where: { id } });\n",
				"src/users.test.ts": "import { find } from './users';\nvi.mock('@prisma/client');\n",
				"src/db.test.ts":    "import { prisma } from './prisma';\n",
			},
			workspaces: []string{"."},
			want: TestPlan{
				Runs: []TestRun{{
					Workspaces: []string{"."}, Dir: ".", Config: "vitest.config.ts", Runner: "vitest",
					Command:   []string{"vitest", "run", "--config", "GENERATED"},
					Scope:     "vitest over all its tests (vitest.config.ts)",
					Generated: "GENERATED",
					Exclude:   []string{"src/db.test.ts"},
				}},
				Skipped: []ServiceSkip{{File: "src/db.test.ts", Needs: "a database (connects with @prisma/client in src/prisma.ts)"}},
			},
		},
		{
			name: "a workspace vitest script after a build step: --exclude, relative to the workspace",
			tree: map[string]string{
				"package.json":                   `{"name":"root"}`,
				"packages/api/package.json":      `{"scripts":{"test":"tsc -b && vitest run;"}}`,
				"packages/api/e2e/login.ts":      "",
				"packages/api/e2e/login.test.ts": "",
			},
			workspaces: []string{"packages/api"},
			want: TestPlan{
				Runs: []TestRun{{
					Workspaces: []string{"packages/api"}, Dir: "packages/api", Runner: "vitest", Scope: "test script of packages/api",
					Command: []string{"sh", "-c", "tsc -b && vitest run --exclude=e2e/login.test.ts"},
				}},
				Skipped: []ServiceSkip{{File: "packages/api/e2e/login.test.ts", Needs: "end-to-end test (in e2e/)"}},
			},
		},
		{
			name: "a script whose runner is not its last command cannot leave files out",
			tree: map[string]string{
				"package.json":              `{"name":"root","scripts":{"test":"jest && eslint ."}}`,
				"src/a.integration.test.ts": "",
			},
			workspaces: []string{"."},
			want: TestPlan{
				Skipped: []ServiceSkip{{File: "src/a.integration.test.ts", Needs: "integration test (by name)"}},
				NotRun:  []string{"root test script runs its tests itself, and 1 test file needs services (src/a.integration.test.ts), which its script is not one jest or vitest command to leave out of: nothing runs without --with-services"},
			},
		},
		{
			name: "setups that mock the clients they import are no services",
			tree: map[string]string{
				"package.json": `{"name":"root","jest":{"setupFilesAfterEnv":["<rootDir>/test/singleton.ts","<rootDir>/test/mock-pg.ts","<rootDir>/test/types.ts"]}}`,
				// The Prisma documentation's singleton: a deep mock of the client module.
				"test/singleton.ts": "import { PrismaClient } from '@prisma/client'\nimport { mockDeep, DeepMockProxy } from 'jest-mock-extended'\nimport prisma from './client'\njest.mock('./client', () => ({ __esModule: true, default: mockDeep<PrismaClient>() }))\nexport const prismaMock = prisma as unknown as DeepMockProxy<PrismaClient>\n",
				"test/client.ts":    "import { PrismaClient } from '@prisma/client'\nexport default new PrismaClient()\n",
				"test/mock-pg.ts":   "vi.mock('pg');\nimport { Pool } from 'pg';\n",
				"test/types.ts":     "import type { Redis } from 'ioredis';\nexport type R = Redis;\n",
			},
			workspaces: []string{"."},
			files:      []string{"src/a.ts"},
			want: TestPlan{Runs: []TestRun{{
				Workspaces: []string{"."}, Dir: ".", Config: "package.json", Runner: "jest",
				Command: []string{"jest", "--ci", "--findRelatedTests", "src/a.ts"},
				Scope:   "jest related over 1 file (package.json)",
			}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.tree)
			got, err := PlanTests(root, repoOf(tc.workspaces...), tc.workspaces, tc.files, tc.withServices)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got.Runs {
				r := &got.Runs[i]
				if r.Generated == "" {
					continue
				}
				if !strings.HasPrefix(r.Generated, "vitest.uptide-") || !strings.HasSuffix(r.Generated, ".config.mjs") {
					t.Errorf("generated config %q is not named vitest.uptide-*.config.mjs next to the repository's", r.Generated)
				}
				for j, a := range r.Command {
					if a == r.Generated {
						r.Command[j] = "GENERATED"
					}
				}
				r.Generated = "GENERATED"
			}
			if diff := cmp.Diff(&tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanTestsIsDeterministic(t *testing.T) {
	root := writeTree(t, map[string]string{
		"package.json":              `{}`,
		"vitest.config.ts":          "export default { test: { globalSetup: './db.ts' } }",
		"db.ts":                     pgSetup,
		"src/a.integration.test.ts": "",
	})
	a, err := PlanTests(root, nil, []string{"."}, []string{"src/a.ts"}, false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PlanTests(root, nil, []string{"."}, []string{"src/a.ts"}, false)
	if diff := cmp.Diff(a, b); diff != "" || a.Runs[0].Generated == "" {
		t.Fatalf("two plans of the same tree differ or generate nothing: %s %+v", diff, a)
	}
}

func TestPlanTestsBadManifest(t *testing.T) {
	root := writeTree(t, map[string]string{
		"package.json":              `{}`,
		"packages/api/package.json": `{"scripts": {`,
	})
	_, err := PlanTests(root, repoOf("packages/api"), []string{"packages/api"}, nil, false)
	if err == nil || !strings.Contains(err.Error(), "packages/api/package.json") || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("want an error naming packages/api/package.json, got %v", err)
	}
	if _, err := PlanTests(root, nil, []string{"../outside"}, nil, false); err == nil {
		t.Fatal("a workspace outside the root was accepted")
	}
}
