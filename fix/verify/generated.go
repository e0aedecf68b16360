package verify

import (
	"encoding/json"
	"path"
	"strings"
)

// generatedConfig is a vitest configuration that imports the repository's
// own (run.Config), excludes the test files that need services, removes the
// setups that connect to them and drops inline projects that only hold such
// tests, and otherwise changes nothing. Paths are
// relative to the configuration's directory, vitest's root.
func generatedConfig(run TestRun) string {
	dir := path.Dir(run.Config)
	rel := func(files []string) string {
		out := make([]string, 0, len(files))
		for _, f := range files {
			out = append(out, relTo(dir, f))
		}
		data, _ := json.Marshal(out)
		return string(data)
	}
	var b strings.Builder
	b.WriteString("// Written by uptide for one verification run and deleted after it.\n")
	b.WriteString("// It runs " + run.Config + " without the tests and setups that need services.\n")
	b.WriteString("import { configDefaults } from 'vitest/config';\n")
	b.WriteString("import { resolve } from 'node:path';\n")
	b.WriteString("import base from './" + path.Base(run.Config) + "';\n\n")
	b.WriteString("const exclude = " + rel(run.Exclude) + ";\n")
	b.WriteString("const drop = " + rel(run.DropSetup) + ".map((f) => resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, f));\n\n")
	b.WriteString(`const keep = (list, root) => {
  if (list == null) return list;
  const items = Array.isArray(list) ? list : [list];
  return items.filter((f) => typeof f !== 'string' || !drop.includes(resolve(root, f)));
};

// A project whose every include pattern names integration or end-to-end
// tests only holds tests that need services.
const onlyServices = (p) => {
  const include = p && typeof p === 'object' ? p.test?.include : undefined;
  return Array.isArray(include) && include.length > 0 &&
    include.every((g) => typeof g === 'string' && /(^|[\/.])(e2e|integration|__integration__)([\/.]|$)/.test(g));
};

export default async function (env) {
  const resolved = typeof base === 'function' ? await base(env) : await base;
  const config = { ...resolved };
  const test = { ...(config.test ?? {}) };
  const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, config.root ?? '.');
  test.exclude = [...(test.exclude ?? configDefaults.exclude), ...exclude];
  test.globalSetup = keep(test.globalSetup, root);
  test.setupFiles = keep(test.setupFiles, root);
  for (const key of ['projects', 'workspace']) {
    if (Array.isArray(test[key])) test[key] = test[key].filter((p) => !onlyServices(p));
  }
  config.test = test;
  return config;
}
`)
	return b.String()
}
