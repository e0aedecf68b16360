package registry

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMain points the cache root at a temporary directory so no test reads
// or writes the developer's cache (notably the remembered default registry).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "uptide-registry-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("UPTIDE_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestParseNpmrc(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cret", "EMPTY": ""}
	tests := []struct {
		name string
		text string
		want map[string]string
	}{
		{"plain", "registry=http://r.test/\n", map[string]string{"registry": "http://r.test/"}},
		{"spaces and CRLF", "  registry = http://r.test/  \r\nfoo=bar\r\n", map[string]string{"registry": "http://r.test/", "foo": "bar"}},
		{"comments", "# a comment\n; another\n   # indented\nkey=value\n", map[string]string{"key": "value"}},
		{"inline comment", "key=value ; trailing\nother=a#b\n", map[string]string{"key": "value", "other": "a"}},
		{"escaped comment char", `key=a\;b\#c`, map[string]string{"key": "a;b#c"}},
		{"double quoted", `key="a;b # c"`, map[string]string{"key": "a;b # c"}},
		{"single quoted", `key='a;b'`, map[string]string{"key": "a;b"}},
		{"no value means true", "always-auth\n", map[string]string{"always-auth": "true"}},
		{"empty value", "key=\n", map[string]string{"key": ""}},
		{"equals in value", "//r.test/:_auth=dXNlcjpwYXNz==\n", map[string]string{"//r.test/:_auth": "dXNlcjpwYXNz=="}},
		{"env substitution", "//r.test/:_authToken=${TOKEN}\n", map[string]string{"//r.test/:_authToken": "s3cret"}},
		{"unset env stays literal", "key=${NOPE}\n", map[string]string{"key": "${NOPE}"}},
		{"optional unset env is empty", "key=${NOPE?}\n", map[string]string{"key": ""}},
		{"escaped env", `key=\${TOKEN}`, map[string]string{"key": "${TOKEN}"}},
		{"env in key", "//${HOST?}r.test/:_authToken=x\n", map[string]string{"//r.test/:_authToken": "x"}},
		{"sections ignored", "a=1\n[section]\nb=2\n[]\nc=3\n", map[string]string{"a": "1", "c": "3"}},
		{"array keys ignored", "ca[]=x\nkey=v\n", map[string]string{"key": "v"}},
		{"later wins in one file", "key=1\nkey=2\n", map[string]string{"key": "2"}},
		{"garbage lines", "=novalue\n\x00\n[unterminated\n", map[string]string{"\x00": "true", "[unterminated": "true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := parseNpmrc([]byte(tt.text), "/home/u/.npmrc", env)
			got := map[string]string{}
			for _, e := range l.entries {
				got[e.key] = e.value
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseNpmrcLineNumbers(t *testing.T) {
	l := parseNpmrc([]byte("# c\n\nregistry=x\n"), "f", nil)
	if len(l.entries) != 1 || l.entries[0].line != 3 {
		t.Fatalf("want registry on line 3, got %+v", l.entries)
	}
}

// writeNpmrc writes an .npmrc into dir (created) and returns dir.
func writeNpmrc(t *testing.T, dir, text string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".npmrc"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadConfigPrecedence(t *testing.T) {
	tests := []struct {
		name        string
		user        string
		project     string
		env         []string
		userconfig  bool // user file at a custom path named by NPM_CONFIG_USERCONFIG
		wantDefault string
		wantScoped  map[string]string
	}{
		{
			name:        "user only",
			user:        "registry=http://user.test/\n@corp:registry=http://corp-user.test/npm\n",
			wantDefault: "http://user.test/",
			wantScoped:  map[string]string{"@corp": "http://corp-user.test/npm/"},
		},
		{
			name:        "project beats user",
			user:        "registry=http://user.test/\n@corp:registry=http://corp-user.test/\n",
			project:     "registry=http://project.test/\n",
			wantDefault: "http://project.test/",
			wantScoped:  map[string]string{"@corp": "http://corp-user.test/"},
		},
		{
			name:        "environment beats project",
			user:        "registry=http://user.test/\n",
			project:     "registry=http://project.test/\n@corp:registry=http://corp-project.test/\n",
			env:         []string{"npm_config_registry=http://env.test", "NPM_CONFIG_@corp:registry=http://corp-env.test/"},
			wantDefault: "http://env.test/",
			wantScoped:  map[string]string{"@corp": "http://corp-env.test/"},
		},
		{
			name:        "empty env value is ignored",
			project:     "registry=http://project.test/\n",
			env:         []string{"npm_config_registry="},
			wantDefault: "http://project.test/",
			wantScoped:  map[string]string{},
		},
		{
			name:        "NPM_CONFIG_USERCONFIG names the user file",
			user:        "registry=http://custom-user.test/\n",
			userconfig:  true,
			wantDefault: "http://custom-user.test/",
			wantScoped:  map[string]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			root := t.TempDir()
			env := []string{"HOME=" + home, "PATH="}
			if tt.user != "" {
				dir := home
				if tt.userconfig {
					dir = filepath.Join(home, "elsewhere")
					writeNpmrc(t, home, "registry=http://ignored.test/\n")
					env = append(env, "NPM_CONFIG_USERCONFIG="+filepath.Join(dir, ".npmrc"))
				}
				writeNpmrc(t, dir, tt.user)
			}
			if tt.project != "" {
				writeNpmrc(t, root, tt.project)
			}
			c, err := LoadConfig(root, append(env, tt.env...))
			if err != nil {
				t.Fatal(err)
			}
			if c.DefaultRegistry != tt.wantDefault {
				t.Errorf("DefaultRegistry = %q, want %q", c.DefaultRegistry, tt.wantDefault)
			}
			if diff := cmp.Diff(tt.wantScoped, c.Scoped); diff != "" {
				t.Errorf("Scoped (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRegistryFor(t *testing.T) {
	c := testConfig(t, "registry=http://default.test/\n@corp:registry=http://corp.test/npm/\n@bad/x:registry=http://never.test/\n")
	for name, want := range map[string]string{
		"left-pad":      "http://default.test/",
		"@corp/widgets": "http://corp.test/npm/",
		"@other/thing":  "http://default.test/",
		"@corp":         "http://default.test/",
	} {
		if got := c.RegistryFor(name); got != want {
			t.Errorf("RegistryFor(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestAuthHeader(t *testing.T) {
	npmrc := strings.Join([]string{
		"registry=http://reg.test/npm/",
		"@corp:registry=http://corp.test:8080/",
		"//reg.test/npm/:_authToken=tok-reg",
		"//reg.test/npm/private/:_authToken=tok-private",
		"//corp.test:8080/:username=alice",
		"//corp.test:8080/:_password=" + "cGFzcw==", // "pass"
		"//basic.test/:_auth=YWxpY2U6cGFzcw==",
		"//tarballs.test/:_authToken=tok-tarballs",
	}, "\n")
	c := testConfig(t, npmrc)
	tests := []struct {
		name, target, registry, want string
	}{
		{"registry itself", "http://reg.test/npm/left-pad", "http://reg.test/npm/", "Bearer tok-reg"},
		{"deepest nerf-dart wins", "http://reg.test/npm/private/x", "http://reg.test/npm/", "Bearer tok-private"},
		{"tarball under the registry", "http://reg.test/npm/left-pad/-/left-pad-1.0.0.tgz", "http://reg.test/npm/", "Bearer tok-reg"},
		{"tarball elsewhere on the registry host", "http://reg.test/files/left-pad-1.0.0.tgz", "http://reg.test/npm/", "Bearer tok-reg"},
		{"tarball on another host gets nothing", "http://cdn.test/left-pad-1.0.0.tgz", "http://reg.test/npm/", ""},
		{"another host with its own token", "http://tarballs.test/a.tgz", "http://reg.test/npm/", "Bearer tok-tarballs"},
		{"port is part of the host", "http://corp.test/@corp/x", "http://reg.test/npm/", ""},
		{"username and _password", "http://corp.test:8080/@corp%2fx", "http://corp.test:8080/", "Basic YWxpY2U6cGFzcw=="},
		{"_auth", "http://basic.test/x", "http://basic.test/", "Basic YWxpY2U6cGFzcw=="},
		{"path prefix is not a parent", "http://reg.test/npmx/y", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(tt.target)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.authHeader(u, tt.registry); got != tt.want {
				t.Errorf("authHeader(%s) = %q, want %q", tt.target, got, tt.want)
			}
		})
	}
}

func TestTopLevelCredentialsOnlyForDefaultRegistry(t *testing.T) {
	c := testConfig(t, "registry=http://reg.test/\n_authToken=legacy\n@corp:registry=http://corp.test/\n")
	reg, _ := url.Parse("http://reg.test/pkg")
	corp, _ := url.Parse("http://corp.test/@corp%2fx")
	if got := c.authHeader(reg, "http://reg.test/"); got != "Bearer legacy" {
		t.Errorf("default registry: %q", got)
	}
	if got := c.authHeader(corp, "http://corp.test/"); got != "" {
		t.Errorf("scoped registry got the unscoped token: %q", got)
	}
}

func TestRegistryURLCredentials(t *testing.T) {
	c := testConfig(t, "registry=http://bob:hunter2@reg.test/\n")
	if c.DefaultRegistry != "http://reg.test/" {
		t.Fatalf("credentials not stripped from the registry URL: %q", c.DefaultRegistry)
	}
	u, _ := url.Parse("http://reg.test/x")
	if got := c.authHeader(u, c.DefaultRegistry); got != "Basic Ym9iOmh1bnRlcjI=" {
		t.Fatalf("authHeader = %q", got)
	}
}

func TestConfigNeverPrintsCredentials(t *testing.T) {
	c := testConfig(t, "registry=http://bob:hunter2@reg.test/\n//reg.test/:_authToken=tok-secret\n_auth=c2VjcmV0\n")
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(format, c)
		for _, secret := range []string{"hunter2", "tok-secret", "c2VjcmV0"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s printed %q: %s", format, secret, out)
			}
		}
	}
	if !strings.Contains(c.String(), "credentials for //reg.test/") {
		t.Errorf("String should say which hosts have credentials: %s", c.String())
	}
}

func TestEnvironmentKeys(t *testing.T) {
	home := t.TempDir()
	c, err := LoadConfig("", []string{
		"HOME=" + home, "PATH=",
		"npm_config_registry=http://env.test/",
		"npm_config_//env.test/:_authToken=tok-env",
		"NPM_CONFIG_ALWAYS_AUTH=true",
	})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://env.test/x")
	if got := c.authHeader(u, c.DefaultRegistry); got != "Bearer tok-env" {
		t.Errorf("env token: %q", got)
	}
	if !c.AlwaysAuth {
		t.Error("NPM_CONFIG_ALWAYS_AUTH=true not read as always-auth")
	}
}

func TestInvalidRegistryNamesFileAndLine(t *testing.T) {
	home := t.TempDir()
	writeNpmrc(t, home, "# comment\nregistry=ftp://user:pw@reg.test/\n")
	_, err := LoadConfig("", []string{"HOME=" + home, "PATH="})
	if err == nil {
		t.Fatal("want an error for a non-http registry")
	}
	msg := err.Error()
	if !strings.Contains(msg, filepath.Join(home, ".npmrc")+":2") || !strings.Contains(msg, "registry=https://") {
		t.Errorf("error should name file:line and the fix: %s", msg)
	}
	if strings.Contains(msg, "pw") {
		t.Errorf("error leaks credentials: %s", msg)
	}
}

func TestForWorkspace(t *testing.T) {
	home := t.TempDir()
	root := writeNpmrc(t, t.TempDir(), "registry=http://root.test/\n@corp:registry=http://corp-root.test/\n")
	ws := writeNpmrc(t, filepath.Join(root, "packages", "web"), "@corp:registry=http://corp-web.test/\nregistry=http://web.test/\n")
	plain := filepath.Join(root, "packages", "api")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=", "npm_config_registry=http://env.test/"}
	c, err := LoadConfig(root, env)
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.ForWorkspace(ws)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.RegistryFor("@corp/x"); got != "http://corp-web.test/" {
		t.Errorf("workspace .npmrc should beat the root's: %s", got)
	}
	if got := w.RegistryFor("x"); got != "http://env.test/" {
		t.Errorf("environment should beat the workspace's .npmrc: %s", got)
	}
	if same, _ := c.ForWorkspace(plain); same != c {
		t.Error("a workspace without .npmrc should share the root's config")
	}
	if same, _ := c.ForWorkspace(root); same != c {
		t.Error("the root as a workspace should share the root's config")
	}
}

func TestUnreadableNpmrc(t *testing.T) {
	if os.Geteuid() == 0 {
		// root reads anything; a directory where the file should be
		// fails for root too.
		home := t.TempDir()
		if err := os.Mkdir(filepath.Join(home, ".npmrc"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig("", []string{"HOME=" + home, "PATH="})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(home, ".npmrc")) {
			t.Fatalf("want an error naming the file, got %v", err)
		}
		return
	}
	home := writeNpmrc(t, t.TempDir(), "registry=http://x.test/\n")
	if err := os.Chmod(filepath.Join(home, ".npmrc"), 0); err != nil {
		t.Fatal(err)
	}
	_, err := LoadConfig("", []string{"HOME=" + home, "PATH="})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(home, ".npmrc")) {
		t.Fatalf("want an error naming the file, got %v", err)
	}
}

func TestSecretsNamesEveryForm(t *testing.T) {
	c := testConfig(t, strings.Join([]string{
		"registry=http://bob:hunter22@reg.test/",
		"//tok.test/:_authToken=tok-secret-1",
		"//auth.test/:_auth=" + base64.StdEncoding.EncodeToString([]byte("alice:pw-alice-1")),
		"//pw.test/:username=carol",
		"//pw.test/:_password=" + base64.StdEncoding.EncodeToString([]byte("pw-carol-1")),
	}, "\n"))
	got := strings.Join(c.Secrets(), " ")
	if env := configWithEnv(t, "", "NODE_AUTH_TOKEN=node-auth-token-1").Secrets(); len(env) != 1 || env[0] != "node-auth-token-1" {
		t.Errorf("NODE_AUTH_TOKEN, named by no .npmrc, is not a secret: %q", env)
	}
	for _, want := range []string{"hunter22", "tok-secret-1", "pw-alice-1", "pw-carol-1",
		base64.StdEncoding.EncodeToString([]byte("pw-carol-1")), base64.StdEncoding.EncodeToString([]byte("carol:pw-carol-1"))} {
		if !strings.Contains(got, want) {
			t.Errorf("Secrets() lacks %q: %s", want, got)
		}
	}
}
