// Package redact owns how the secrets Uptide knows — a provider's API key,
// the registry credentials of the .npmrc files, the values of environment
// variables named like secrets — are kept out of everything it prints,
// reports and stores: what a provider or any other child process prints
// passes through one Secrets before it enters an error, a report or a
// stored run. It also keeps the registry's credentials out of the
// environment of a child that has no use for them (the --llm-cmd provider).
package redact

import (
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Mask replaces a secret.
const Mask = "[redacted]"

// minLen is the shortest value treated as a secret: shorter ones are
// words ("true", "1", "dev"), and masking them would garble every message
// without hiding a key.
const minLen = 6

// Secrets is a set of values never to show. The zero value and nil are
// empty sets; it is safe for concurrent use, and a set shared by pointer
// may learn values after it is handed out (the registry's credentials,
// once the repository's .npmrc files are read).
type Secrets struct {
	mu       sync.RWMutex
	values   []string // longest first, so a secret containing another is masked whole
	withheld map[string]bool
}

// New is a set of values.
func New(values ...string) *Secrets {
	s := &Secrets{}
	s.Add(values...)
	return s
}

// FromEnv is the set of the values of env's variables that are named like
// secrets (ANTHROPIC_API_KEY, NPM_TOKEN, NODE_AUTH_TOKEN, DB_PASSWORD,
// npm_config_//host/:_authToken…): a child process may print any of them.
// Values that do not look like a key are left out, so a message is not
// garbled for nothing: shorter than 8 bytes, with a space, or a path
// (SSH_AUTH_SOCK).
func FromEnv(env []string) *Secrets {
	s := &Secrets{}
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if ok && secretName(name) && len(value) >= 8 && !strings.ContainsAny(value, " \t\n") && !strings.HasPrefix(value, "/") {
			s.Add(value)
		}
	}
	return s
}

// secretName says whether a variable's name says it holds a secret.
func secretName(name string) bool {
	if strings.Contains(name, "//") {
		return true // an npm_config_ nerf-dart setting: a credential
	}
	for _, part := range strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool { return r == '_' || r == '-' }) {
		switch part {
		case "KEY", "APIKEY", "TOKEN", "AUTHTOKEN", "AUTH", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIALS", "CREDENTIAL":
			return true
		}
	}
	return false
}

// Add adds values to the set; those shorter than six bytes are ignored.
func (s *Secrets) Add(values ...string) {
	s.add(false, values)
}

// Withhold adds values that, besides being masked, must not reach a
// child that has no use for them: Env drops the variables holding them.
func (s *Secrets) Withhold(values ...string) {
	s.add(true, values)
}

func (s *Secrets) add(withhold bool, values []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		if len(v) < minLen {
			continue
		}
		if withhold {
			if s.withheld == nil {
				s.withheld = map[string]bool{}
			}
			s.withheld[v] = true
		}
		if !contains(s.values, v) {
			s.values = append(s.values, v)
		}
	}
	sort.SliceStable(s.values, func(i, j int) bool { return len(s.values[i]) > len(s.values[j]) })
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// String is text with every secret of the set, and every value of also
// (a provider's own key), replaced by Mask.
func (s *Secrets) String(text string, also ...string) string {
	for _, v := range also {
		if len(v) >= minLen {
			text = strings.ReplaceAll(text, v, Mask)
		}
	}
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.values {
		text = strings.ReplaceAll(text, v, Mask)
	}
	return text
}

// Env is env without the variables that hold a withheld secret.
func (s *Secrets) Env(env []string) []string {
	if s == nil {
		return env
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(env))
	for _, kv := range env {
		_, value, _ := strings.Cut(kv, "=")
		keep := true
		for w := range s.withheld {
			if strings.Contains(value, w) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// Walk masks the secrets in every string v reaches through pointers,
// structs, slices, arrays, maps and interfaces, in place: a report whose
// fields carry what children printed is made safe to print and store in
// one step, whatever field a later change adds. Map keys and unexported
// fields are left as they are.
func (s *Secrets) Walk(v any) {
	if s == nil {
		return
	}
	s.mu.RLock()
	empty := len(s.values) == 0
	s.mu.RUnlock()
	if empty {
		return
	}
	s.walk(reflect.ValueOf(v), map[uintptr]bool{})
}

func (s *Secrets) walk(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		s.walk(v.Elem(), seen)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() == reflect.String && v.CanSet() {
			v.Set(reflect.ValueOf(s.String(e.String())).Convert(e.Type()))
			return
		}
		s.walk(e, seen)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				s.walk(v.Field(i), seen)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes, not text
		}
		for i := 0; i < v.Len(); i++ {
			s.walk(v.Index(i), seen)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(iter.Value())
			s.walk(val, seen)
			v.SetMapIndex(iter.Key(), val)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(s.String(v.String()))
		}
	}
}
