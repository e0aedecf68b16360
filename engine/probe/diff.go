package probe

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/lists"
)

// Diff compares what each loader got from the installed copy with what it
// gets from the target. Only what the installed copy gave can be lost: a
// loader that threw on the installed copy too compares nothing. The
// changes come sorted by loader, kind and key.
func Diff(installed, target model.RuntimeCopy) []model.RuntimeChange {
	var out []model.RuntimeChange
	for _, l := range []model.Loader{model.LoaderRequire, model.LoaderImport} {
		out = append(out, diffLoad(l, string(l)+"()", installed.Load(l), target.Load(l), target.Version)...)
	}
	// Each subpath entry both copies loaded to an answer, the same way,
	// its changes marked with the entry.
	for _, ie := range installed.Subpaths {
		te, ok := target.Entry(ie.Subpath)
		if !ok || ie.Inconclusive != "" || te.Inconclusive != "" {
			continue
		}
		for _, l := range []model.Loader{model.LoaderRequire, model.LoaderImport} {
			call := fmt.Sprintf("%s() of the %s entry", l, ie.Subpath)
			for _, c := range diffLoad(l, call, ie.Load(l), te.Load(l), target.Version) {
				c.Subpath = ie.Subpath
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Subpath != b.Subpath {
			return a.Subpath < b.Subpath
		}
		if a.Loader != b.Loader {
			return a.Loader == model.LoaderRequire
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Key < b.Key
	})
	return out
}

// diffLoad compares one loader's outcomes; call names the load in the
// details ("require()", "import() of the ./v4 entry").
func diffLoad(l model.Loader, call string, in, tg model.RuntimeLoad, version string) []model.RuntimeChange {
	if !in.Got() {
		return nil
	}
	if tg.Threw || !tg.Got() {
		kind := model.RuntimeRequireThrows
		if l == model.LoaderImport {
			kind = model.RuntimeImportThrows
		}
		detail := fmt.Sprintf("%s of %s throws", call, version)
		if tg.Code != "" {
			detail += " " + tg.Code
		}
		if msg := firstLine(tg.Message); msg != "" {
			detail += ": " + msg
		}
		return []model.RuntimeChange{{Kind: kind, Loader: l, Code: tg.Code, Detail: detail}}
	}
	iv, tv := in.Value, tg.Value
	var out []model.RuntimeChange
	add := func(kind model.RuntimeChangeKind, key, detail string) {
		out = append(out, model.RuntimeChange{Kind: kind, Loader: l, Key: key, Detail: detail})
	}
	// What a site holds after the load: require() hands over the value;
	// import() a namespace, whose default is the value a default import
	// holds and whose other keys are the named imports.
	if l == model.LoaderRequire {
		movedToDefault := tv.Namespace && !iv.Namespace && tv.Default != nil
		switch {
		case iv.Callable && !tv.Callable && movedToDefault && tv.Default.Callable:
			add(model.RuntimeNamespaceInstead, "", fmt.Sprintf("%s of %s returns a module namespace; the function is its default export", call, version))
		case iv.Callable && !tv.Callable:
			add(model.RuntimeCallableLost, "", fmt.Sprintf("%s of %s returns %s, not a function", call, version, describeType(tv)))
		case iv.Constructable && !tv.Constructable:
			add(model.RuntimeConstructableLost, "", fmt.Sprintf("%s of %s returns a value new cannot construct", call, version))
		}
		out = append(out, diffKeys(l, call, "", iv, tv, version)...)
		return out
	}
	out = append(out, diffKeys(l, call, "", withoutDefault(iv), withoutDefault(tv), version)...)
	switch {
	case iv.Default == nil:
	case tv.Default == nil:
		if _, had := iv.Keys["default"]; had {
			add(model.RuntimeKeyRemoved, "default", fmt.Sprintf("%s of %s has no default export", call, version))
		}
	default:
		id, td := iv.Default, tv.Default
		switch {
		case id.Callable && !td.Callable:
			add(model.RuntimeCallableLost, "default", fmt.Sprintf("the default export of %s is %s, not a function", version, describeType(td)))
		case id.Constructable && !td.Constructable:
			add(model.RuntimeConstructableLost, "default", fmt.Sprintf("new cannot construct the default export of %s", version))
		}
		out = append(out, diffKeys(l, call, "default.", id, td, version)...)
	}
	return out
}

// diffKeys lists the keys of in that tg lost, or whose value stopped
// being callable or constructable.
func diffKeys(l model.Loader, call, prefix string, in, tg *model.RuntimeValue, version string) []model.RuntimeChange {
	var out []model.RuntimeChange
	if in == nil || tg == nil || tg.KeysTruncated {
		return nil
	}
	keys := lists.SortedKeys(in.Keys)
	for _, k := range keys {
		was := in.Keys[k]
		// A key whose getter throws (express 4's removed middlewares
		// tell you so when read) was never usable: losing it breaks
		// nothing.
		if interopKeys[k] || was.Type == unreadable {
			continue
		}
		now, ok := tg.Keys[k]
		key := prefix + k
		if !ok {
			c := model.RuntimeChange{Kind: model.RuntimeKeyRemoved, Loader: l, Key: key,
				Detail: fmt.Sprintf("%s of %s has no %s", call, version, key)}
			if prefix == "" && tg.Namespace && tg.Default != nil {
				if _, onDefault := tg.Default.Keys[k]; onDefault {
					c.OnDefault = true
					c.Detail = fmt.Sprintf("%s of %s returns a module namespace: %s is only on its default export", call, version, k)
				}
			}
			out = append(out, c)
			continue
		}
		switch {
		case was.Callable && !now.Callable:
			out = append(out, model.RuntimeChange{Kind: model.RuntimeCallableLost, Loader: l, Key: key,
				Detail: fmt.Sprintf("%s of %s is %s, not a function", key, version, articled(now.Type))})
		case was.Constructable && !now.Constructable:
			out = append(out, model.RuntimeChange{Kind: model.RuntimeConstructableLost, Loader: l, Key: key,
				Detail: fmt.Sprintf("new cannot construct %s of %s", key, version)})
		}
	}
	return out
}

// unreadable is the type the probe gives a key whose read throws.
const unreadable = "unreadable"

// interopKeys are markers of how a module was compiled or wrapped
// (Babel's __esModule, Node's "module.exports" export of a CommonJS
// namespace), not API a site reads.
var interopKeys = map[string]bool{"__esModule": true, "module.exports": true}

// withoutDefault is a namespace's named exports alone.
func withoutDefault(v *model.RuntimeValue) *model.RuntimeValue {
	if v == nil {
		return nil
	}
	c := *v
	c.Keys = make(map[string]model.RuntimeMember, len(v.Keys))
	for k, m := range v.Keys {
		if k != "default" {
			c.Keys[k] = m
		}
	}
	return &c
}

func describeType(v *model.RuntimeValue) string {
	if v.Namespace {
		return "a module namespace"
	}
	return articled(v.Type)
}

func articled(t string) string {
	switch t {
	case "undefined", "null":
		return t
	case "object":
		return "an object"
	}
	return "a " + t
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
