package registry

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/uptide/uptide/internal/lists"
)

// Config is the resolved npm configuration Uptide needs: which registry
// serves which package and which credentials go to which host. Build it
// with LoadConfig. Credentials are unexported and held behind pointers so
// printing a Config with %v never shows them.
type Config struct {
	// DefaultRegistry serves unscoped packages and scopes without their own
	// registry. It always ends in "/". It is empty only when nothing names a
	// registry and npm could not be asked; defaultErr then says why.
	DefaultRegistry string
	// Scoped maps "@scope" to its registry URL (ending in "/").
	Scoped map[string]string
	// AlwaysAuth records always-auth. Like npm 7 and later, Uptide sends a
	// host's credentials on every request to that host whether or not it
	// is set, so it changes nothing; it is kept for display.
	AlwaysAuth bool
	// Files lists the .npmrc files that were read, in precedence order.
	Files []string

	// s holds the raw layers and credentials. Behind a pointer, because
	// fmt prints a nested pointer as an address: %#v of a Config shows no
	// secret. A Config built by hand (a test registry) has none.
	s *configState
}

type configState struct {
	auth       map[string]*credentials // by nerf-dart "//host[:port]/path/"
	defaultErr error
	npmDefault string // registry npm reported; reused by ForWorkspace
	user       layer
	projects   []layer
	env        layer
	envVars    map[string]string
}

// credentials are what an .npmrc says for one nerf-dart.
type credentials struct {
	token    string // _authToken
	auth     string // _auth: base64 "user:password"
	username string
	password string // _password: base64 of the password, as npm stores it
}

// header is the Authorization value, chosen in npm-registry-fetch's order:
// a token first, then _auth, then username and _password.
func (c *credentials) header() string {
	switch {
	case c == nil:
		return ""
	case c.token != "":
		return "Bearer " + c.token
	case c.auth != "":
		return "Basic " + c.auth
	case c.username != "" && c.password != "":
		pw, err := base64.StdEncoding.DecodeString(c.password)
		if err != nil {
			pw = []byte(c.password)
		}
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(c.username+":"+string(pw)))
	}
	return ""
}

// tokenVars are the variables registry tokens are conventionally kept in
// for an .npmrc to reference (CI's setup actions write
// `//host/:_authToken=${NODE_AUTH_TOKEN}`) or yarn berry to read: registry
// credentials even where no file of this repository names them.
var tokenVars = []string{"NPM_TOKEN", "NODE_AUTH_TOKEN", "YARN_NPM_AUTH_TOKEN"}

// Secrets are the credential values the configuration holds, in every
// form they may appear in (a token, _auth and its decoded user:password,
// a _password encoded and decoded, the Basic value sent), and the values
// of tokenVars, so what a child process prints can be redacted of them
// and a child with no use for them can be denied them.
func (c *Config) Secrets() []string {
	if c == nil || c.s == nil {
		return nil
	}
	var out []string
	for _, name := range tokenVars {
		if v := c.s.envVars[name]; v != "" {
			out = append(out, v)
		}
	}
	for _, cr := range c.s.auth {
		out = append(out, cr.token, cr.auth, cr.password)
		if raw, err := base64.StdEncoding.DecodeString(cr.auth); err == nil {
			out = append(out, string(raw))
			if _, pw, ok := strings.Cut(string(raw), ":"); ok {
				out = append(out, pw)
			}
		}
		if pw, err := base64.StdEncoding.DecodeString(cr.password); err == nil {
			out = append(out, string(pw))
		}
		if h := cr.header(); strings.HasPrefix(h, "Basic ") {
			out = append(out, strings.TrimPrefix(h, "Basic "))
		}
	}
	sort.Strings(out)
	return out
}

// LoadConfig reads the npm configuration that applies in root: the user
// .npmrc ($NPM_CONFIG_USERCONFIG, else ~/.npmrc), the project's
// <root>/.npmrc, then npm_config_* variables, later sources winning key by
// key as in npm. env is the environment to read (nil means os.Environ()).
// When nothing names a registry, npm is asked once which registry it uses
// and the answer is cached; if that fails, LoadConfig still succeeds and
// requests for packages without a registry fail with a clear error.
func LoadConfig(root string, env []string) (*Config, error) {
	if env == nil {
		env = os.Environ()
	}
	vars := envMap(env)
	c := &Config{s: &configState{envVars: vars}}
	userPath := userConfigPath(vars)
	if userPath != "" {
		l, ok, err := readLayer(userPath, vars)
		if err != nil {
			return nil, err
		}
		if ok {
			c.s.user = l
		}
	}
	if root != "" {
		l, ok, err := readLayer(filepath.Join(root, ".npmrc"), vars)
		if err != nil {
			return nil, err
		}
		if ok && !samePath(l.source, userPath) {
			c.s.projects = append(c.s.projects, l)
		}
	}
	c.s.env = envLayer(env, vars)
	if err := c.resolve(); err != nil {
		return nil, err
	}
	if c.DefaultRegistry == "" {
		reg, err := npmDefaultRegistry(env)
		if err != nil {
			c.s.defaultErr = err
		} else {
			c.s.npmDefault = reg
			if err := c.resolve(); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// ForWorkspace returns the configuration for a workspace package inside
// the project: its own .npmrc, when it has one, ranks above the project
// root's and below the environment (as pnpm reads them). Without one it
// returns c itself.
func (c *Config) ForWorkspace(dir string) (*Config, error) {
	if c.s == nil {
		return c, nil
	}
	l, ok, err := readLayer(filepath.Join(dir, ".npmrc"), c.s.envVars)
	if err != nil || !ok {
		return c, err
	}
	for _, p := range c.s.projects {
		if samePath(p.source, l.source) {
			return c, nil
		}
	}
	if samePath(c.s.user.source, l.source) {
		return c, nil
	}
	st := *c.s
	w := &Config{s: &st}
	w.s.projects = append(append([]layer(nil), c.s.projects...), l)
	if err := w.resolve(); err != nil {
		return nil, err
	}
	return w, nil
}

// RegistryFor returns the registry URL (ending in "/") that serves name:
// its scope's registry when one is configured, else the default. It is
// empty when no registry is known (see LoadConfig).
func (c *Config) RegistryFor(name string) string {
	if strings.HasPrefix(name, "@") {
		if scope, _, ok := strings.Cut(name, "/"); ok {
			if r, ok := c.Scoped[scope]; ok {
				return r
			}
		}
	}
	return c.DefaultRegistry
}

// String describes the configuration without credentials.
func (c *Config) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "registry %s", c.DefaultRegistry)
	scopes := lists.SortedKeys(c.Scoped)
	for _, s := range scopes {
		fmt.Fprintf(&b, "; %s %s", s, c.Scoped[s])
	}
	var keys []string
	if c.s != nil {
		for k := range c.s.auth {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		fmt.Fprintf(&b, "; credentials for %s", strings.Join(keys, ", "))
	}
	return b.String()
}

func userConfigPath(vars map[string]string) string {
	for k, v := range vars {
		if strings.EqualFold(k, "npm_config_userconfig") && v != "" {
			return v
		}
	}
	home := vars["HOME"]
	if home == "" {
		home = vars["USERPROFILE"]
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".npmrc")
}

// readLayer reads one .npmrc; a missing file is no layer, not an error.
func readLayer(path string, vars map[string]string) (layer, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return layer{}, false, nil
	}
	if err != nil {
		return layer{}, false, fmt.Errorf("read %s: %w: fix its permissions or remove it", path, unwrapPathError(err))
	}
	return parseNpmrc(data, path, vars), true, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// resolve merges the layers (user < projects < environment) into the
// exported fields and the credentials table.
func (c *Config) resolve() error {
	merged := map[string]entry{}
	var order []string
	c.Files = c.Files[:0]
	layers := append([]layer{c.s.user}, c.s.projects...)
	layers = append(layers, c.s.env)
	for _, l := range layers {
		if l.source != "" && l.source != "environment" {
			c.Files = append(c.Files, l.source)
		}
		for _, e := range l.entries {
			if _, seen := merged[e.key]; !seen {
				order = append(order, e.key)
			}
			merged[e.key] = e
		}
	}
	c.Scoped = map[string]string{}
	c.s.auth = map[string]*credentials{}
	c.DefaultRegistry = ""
	c.AlwaysAuth = false
	var topLevel credentials
	for _, key := range order {
		e := merged[key]
		switch {
		case key == "registry":
			reg, cred, err := normalizeRegistry(e)
			if err != nil {
				return err
			}
			c.DefaultRegistry = reg
			c.addURLCredentials(reg, cred)
		case strings.HasPrefix(key, "@") && strings.HasSuffix(key, ":registry"):
			scope := strings.TrimSuffix(key, ":registry")
			if strings.Contains(scope, "/") || len(scope) < 2 {
				continue
			}
			reg, cred, err := normalizeRegistry(e)
			if err != nil {
				return err
			}
			c.Scoped[scope] = reg
			c.addURLCredentials(reg, cred)
		case strings.EqualFold(key, "always-auth"):
			c.AlwaysAuth = e.value == "true"
		case strings.HasPrefix(key, "//") || strings.HasPrefix(key, "http://") || strings.HasPrefix(key, "https://"):
			nerf, field, ok := splitScopedKey(key)
			if !ok {
				continue
			}
			if strings.EqualFold(field, "always-auth") {
				c.AlwaysAuth = c.AlwaysAuth || e.value == "true"
				continue
			}
			cr := c.s.auth[nerf]
			if cr == nil {
				cr = &credentials{}
			}
			if setCredential(cr, field, e.value) {
				c.s.auth[nerf] = cr
			}
		default:
			setCredential(&topLevel, key, e.value)
		}
	}
	if c.DefaultRegistry == "" && c.s.npmDefault != "" {
		c.DefaultRegistry = c.s.npmDefault
	}
	// Unscoped credentials (npm 6, yarn 1 and pnpm still honour them)
	// belong to the default registry only, never to any other host.
	if topLevel.header() != "" && c.DefaultRegistry != "" {
		if u, err := url.Parse(c.DefaultRegistry); err == nil {
			nerf := nerfDart(u)
			if c.s.auth[nerf].header() == "" {
				tl := topLevel
				c.s.auth[nerf] = &tl
			}
		}
	}
	for nerf, cr := range c.s.auth {
		if cr.header() == "" {
			delete(c.s.auth, nerf)
		}
	}
	return nil
}

// setCredential stores one credential field; it reports whether field is one.
func setCredential(cr *credentials, field, value string) bool {
	switch {
	case strings.EqualFold(field, "_authToken"):
		cr.token = value
	case strings.EqualFold(field, "_auth"):
		cr.auth = value
	case strings.EqualFold(field, "username"):
		cr.username = value
	case strings.EqualFold(field, "_password"):
		cr.password = value
	default:
		return false
	}
	return true
}

// addURLCredentials keeps the user:password of a registry URL as basic
// credentials for it (npm honours them), unless the .npmrc already has some.
func (c *Config) addURLCredentials(reg string, cred *credentials) {
	if cred == nil {
		return
	}
	u, err := url.Parse(reg)
	if err != nil {
		return
	}
	nerf := nerfDart(u)
	if c.s.auth[nerf].header() == "" {
		c.s.auth[nerf] = cred
	}
}

// splitScopedKey splits "//host/path/:_authToken" into its normalised
// nerf-dart ("//host/path/") and field. A scheme in front is tolerated.
func splitScopedKey(key string) (nerf, field string, ok bool) {
	i := strings.LastIndex(key, ":")
	if i < 0 {
		return "", "", false
	}
	prefix, field := key[:i], key[i+1:]
	prefix = strings.TrimPrefix(strings.TrimPrefix(prefix, "https:"), "http:")
	if !strings.HasPrefix(prefix, "//") || len(prefix) <= 2 {
		return "", "", false
	}
	u, err := url.Parse("http:" + prefix)
	if err != nil || u.Host == "" {
		return "", "", false
	}
	return nerfDart(u), field, true
}

// normalizeRegistry validates a registry URL from the config, strips any
// user:password out of it (returned as credentials) and ends it in "/".
func normalizeRegistry(e entry) (string, *credentials, error) {
	u, err := url.Parse(strings.TrimSpace(e.value))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		shown := ""
		if err == nil && u.User == nil && !strings.Contains(e.value, "@") {
			shown = fmt.Sprintf(" %q", e.value)
		}
		return "", nil, fmt.Errorf("%s: %s%s is not an http(s) URL: set %s=https://<your registry>/", where(e), e.key, shown, e.key)
	}
	var cred *credentials
	if u.User != nil {
		pw, _ := u.User.Password()
		cred = &credentials{username: u.User.Username(), password: base64.StdEncoding.EncodeToString([]byte(pw))}
		if pw == "" {
			cred = nil
		}
		u.User = nil
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	u.Host = strings.ToLower(u.Host)
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		if u.RawPath != "" {
			u.RawPath += "/"
		}
	}
	return u.String(), cred, nil
}

func where(e entry) string {
	if e.line > 0 {
		return fmt.Sprintf("%s:%d", e.source, e.line)
	}
	return e.source
}

// nerfDart is npm's key for per-registry settings: "//host[:port]/path/"
// with no scheme, query or fragment.
func nerfDart(u *url.URL) string {
	p := u.EscapedPath()
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return "//" + strings.ToLower(u.Host) + p
}

// authHeader returns the Authorization value for a request to target
// on behalf of registry (a package's registry URL). Credentials are looked
// up by walking target's nerf-dart up to its host, as npm does; when none
// match and target is on the registry's host, the registry's credentials
// apply. Another host never receives the registry's credentials.
func (c *Config) authHeader(target *url.URL, registry string) string {
	if c == nil || c.s == nil || len(c.s.auth) == 0 {
		return ""
	}
	if h := c.lookupAuth(nerfDart(target)); h != "" {
		return h
	}
	reg, err := url.Parse(registry)
	if err != nil || registry == "" || !strings.EqualFold(reg.Host, target.Host) {
		return ""
	}
	return c.lookupAuth(nerfDart(reg))
}

func (c *Config) lookupAuth(key string) string {
	for len(key) > 2 {
		if h := c.s.auth[key].header(); h != "" {
			return h
		}
		key = strings.TrimSuffix(key, "/")
		key = key[:strings.LastIndex(key, "/")+1]
	}
	return ""
}

// Setting is the value of an .npmrc key that is not about registries or
// credentials ("legacy-peer-deps", "auto-install-peers"), with where it was
// set ("/repo/.npmrc:3", "environment variable npm_config_legacy_peer_deps"),
// the environment first, then the project's files, then the user's.
// Credential keys are never answered.
func (c *Config) Setting(key string) (value, source string, ok bool) {
	if c == nil || c.s == nil || strings.HasPrefix(key, "//") || strings.HasPrefix(key, "_") {
		return "", "", false
	}
	layers := append([]layer{c.s.user}, c.s.projects...)
	layers = append(layers, c.s.env)
	for i := len(layers) - 1; i >= 0; i-- {
		es := layers[i].entries
		for j := len(es) - 1; j >= 0; j-- {
			if strings.EqualFold(es[j].key, key) {
				return es[j].value, where(es[j]), true
			}
		}
	}
	return "", "", false
}
