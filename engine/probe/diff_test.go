package probe

import (
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func fn(keys map[string]model.RuntimeMember) *model.RuntimeValue {
	return &model.RuntimeValue{RuntimeMember: model.RuntimeMember{Type: "function", Callable: true, Constructable: true}, Keys: keys}
}

func arrow(keys map[string]model.RuntimeMember) *model.RuntimeValue {
	return &model.RuntimeValue{RuntimeMember: model.RuntimeMember{Type: "function", Callable: true}, Keys: keys}
}

func object(keys map[string]model.RuntimeMember) *model.RuntimeValue {
	return &model.RuntimeValue{RuntimeMember: model.RuntimeMember{Type: "object"}, Keys: keys}
}

func namespace(def *model.RuntimeValue, keys map[string]model.RuntimeMember) *model.RuntimeValue {
	own := map[string]model.RuntimeMember{}
	for k, m := range keys {
		own[k] = m
	}
	v := object(own)
	v.Namespace = true
	if def != nil {
		v.Default = def
		own["default"] = def.RuntimeMember
	}
	return v
}

var (
	member = model.RuntimeMember{Type: "function", Callable: true}
	number = model.RuntimeMember{Type: "number"}
)

func copyOf(req, imp *model.RuntimeValue) model.RuntimeCopy {
	c := model.RuntimeCopy{Version: "2.0.0"}
	if req != nil {
		c.Require.Value = req
	} else {
		c.Require = model.RuntimeLoad{Threw: true, Code: "ERR_REQUIRE_ESM", Message: "require() of ES Module"}
	}
	if imp != nil {
		c.Import.Value = imp
	} else {
		c.Import = model.RuntimeLoad{Threw: true, Code: "ERR_PACKAGE_PATH_NOT_EXPORTED", Message: "No \"exports\" main"}
	}
	return c
}

type want struct {
	kind      model.RuntimeChangeKind
	loader    model.Loader
	key, code string
	onDefault bool
}

func TestDiff(t *testing.T) {
	red := map[string]model.RuntimeMember{"red": member}
	cases := []struct {
		name           string
		installed, tgt model.RuntimeCopy
		want           []want
	}{
		{"same shape, nothing", copyOf(fn(red), namespace(fn(red), nil)), copyOf(fn(red), namespace(fn(red), nil)), nil},
		{"require() throws", copyOf(fn(nil), nil), copyOf(nil, nil),
			[]want{{model.RuntimeRequireThrows, model.LoaderRequire, "", "ERR_REQUIRE_ESM", false}}},
		{"import() throws", copyOf(nil, namespace(nil, red)), copyOf(nil, nil),
			[]want{{model.RuntimeImportThrows, model.LoaderImport, "", "ERR_PACKAGE_PATH_NOT_EXPORTED", false}}},
		{"a throw on both sides compares nothing", copyOf(nil, nil), copyOf(nil, nil), nil},
		{"namespace instead of the function, red only on default", copyOf(arrow(red), nil), copyOf(namespace(arrow(red), nil), nil),
			[]want{
				{model.RuntimeKeyRemoved, model.LoaderRequire, "red", "", true},
				{model.RuntimeNamespaceInstead, model.LoaderRequire, "", "", false},
			}},
		{"a namespace whose default is no function is callable-lost", copyOf(arrow(nil), nil), copyOf(namespace(object(nil), nil), nil),
			[]want{{model.RuntimeCallableLost, model.LoaderRequire, "", "", false}}},
		{"class to factory", copyOf(fn(nil), nil), copyOf(arrow(nil), nil),
			[]want{{model.RuntimeConstructableLost, model.LoaderRequire, "", "", false}}},
		{"a member stops being a function", copyOf(object(red), nil), copyOf(object(map[string]model.RuntimeMember{"red": number}), nil),
			[]want{{model.RuntimeCallableLost, model.LoaderRequire, "red", "", false}}},
		{"a named export and a default member go", copyOf(nil, namespace(object(red), red)), copyOf(nil, namespace(object(nil), nil)),
			[]want{
				{model.RuntimeKeyRemoved, model.LoaderImport, "default.red", "", false},
				{model.RuntimeKeyRemoved, model.LoaderImport, "red", "", false},
			}},
		{"the default export goes", copyOf(nil, namespace(arrow(nil), nil)), copyOf(nil, namespace(nil, red)),
			[]want{{model.RuntimeKeyRemoved, model.LoaderImport, "default", "", false}}},
		{"the default export stops being callable", copyOf(nil, namespace(arrow(nil), nil)), copyOf(nil, namespace(object(nil), nil)),
			[]want{{model.RuntimeCallableLost, model.LoaderImport, "default", "", false}}},
		{"a key whose read threw was never usable", copyOf(object(map[string]model.RuntimeMember{"bodyParser": {Type: "unreadable"}}), nil), copyOf(object(nil), nil), nil},
		{"interop markers are no API", copyOf(object(map[string]model.RuntimeMember{"__esModule": {Type: "boolean"}}), nil), copyOf(object(nil), nil), nil},
		{"added keys are no change", copyOf(object(nil), nil), copyOf(object(red), nil), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []want
			for _, c := range Diff(tc.installed, tc.tgt) {
				if c.Detail == "" {
					t.Errorf("%s %q has no detail", c.Kind, c.Key)
				}
				got = append(got, want{c.Kind, c.Loader, c.Key, c.Code, c.OnDefault})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
