package verify

import (
	"bufio"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// Target is a connection target the tests that need services would reach:
// a variable naming a database, a cache or a queue, from the environment or
// a dotenv file, with any credential in its value masked.
type Target struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// From is "environment" or the dotenv file (slash, relative to root).
	From string `json:"from"`
}

// Services is what --with-services would run that a default run leaves
// out, and where it would connect: what the user confirms with --yes.
type Services struct {
	// Needs are the test files and setups that need a service.
	Needs []ServiceSkip `json:"needs"`
	// Runs are the whole test runs a default run does not start.
	Runs    []string `json:"runs"`
	Targets []Target `json:"targets"`
}

// Empty is true when nothing in the workspaces needs a service.
func (s Services) Empty() bool { return len(s.Needs) == 0 && len(s.Runs) == 0 }

// FindServices classifies the workspaces' tests from their files alone
// (as PlanTests does without services) and lists the connection targets
// they would use, from env and the dotenv files of the root and the
// workspaces. Nothing runs.
func FindServices(root string, repo *model.Repository, workspaces []string, env []string) (Services, error) {
	tp, err := PlanTests(root, repo, workspaces, nil, false)
	if err != nil {
		return Services{}, err
	}
	s := Services{Needs: tp.Skipped, Runs: tp.NotRun}
	if s.Needs == nil {
		s.Needs = []ServiceSkip{}
	}
	if s.Runs == nil {
		s.Runs = []string{}
	}
	s.Targets = serviceTargets(root, append([]string{"."}, workspaces...), env)
	return s, nil
}

// dotenvFiles are the files test runners and dotenv loaders read.
var dotenvFiles = []string{".env", ".env.local", ".env.test", ".env.test.local"}

// serviceVarRE names variables that point at a service.
var serviceVarRE = regexp.MustCompile(`(?i)^[A-Z0-9_]*(DATABASE|DB|POSTGRES|PG|MYSQL|MARIADB|MONGO|MONGODB|REDIS|CACHE|AMQP|RABBITMQ|RABBIT|KAFKA|QUEUE|NATS|ELASTIC|ELASTICSEARCH)[A-Z0-9_]*_(URL|URI|DSN|HOST|ADDR|BROKERS)$`)

// serviceSchemes are URL schemes of services, whatever the variable name.
var serviceSchemes = map[string]bool{"postgres": true, "postgresql": true, "mysql": true, "mariadb": true,
	"mongodb": true, "mongodb+srv": true, "redis": true, "rediss": true, "amqp": true, "amqps": true,
	"kafka": true, "nats": true}

func serviceTargets(root string, dirs, env []string) []Target {
	seen := map[Target]bool{}
	var out []Target
	add := func(name, value, from string) {
		if !isServiceVar(name, value) {
			return
		}
		t := Target{Name: name, Value: maskCredentials(value), From: from}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, kv := range env {
		if name, value, ok := strings.Cut(kv, "="); ok {
			add(name, value, "environment")
		}
	}
	for _, d := range uniqSorted(dirs) {
		for _, f := range dotenvFiles {
			rel := path.Join(d, f)
			for _, kv := range readDotenv(filepath.Join(root, filepath.FromSlash(rel))) {
				add(kv[0], kv[1], rel)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].From < out[j].From
	})
	return out
}

func isServiceVar(name, value string) bool {
	if value == "" {
		return false
	}
	if serviceVarRE.MatchString(name) {
		return true
	}
	if u, err := url.Parse(value); err == nil && serviceSchemes[strings.ToLower(u.Scheme)] {
		return true
	}
	return false
}

// secretQueryRE finds credentials passed as query parameters.
var secretQueryRE = regexp.MustCompile(`(?i)((?:password|passwd|pwd|secret|token|apikey|api_key|access_key)=)[^&;\s]+`)

// maskCredentials hides the password of a URL's user info and credentials
// in its query; the host, port and database stay, since they are what the
// user confirms.
func maskCredentials(value string) string {
	if u, err := url.Parse(value); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "***")
			value = strings.Replace(u.String(), "%2A%2A%2A", "***", 1)
		}
	}
	return secretQueryRE.ReplaceAllString(value, "${1}***")
}

// readDotenv reads KEY=VALUE lines (export prefixes, quotes and comments
// as dotenv reads them); a missing or unreadable file has none.
func readDotenv(file string) [][2]string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		} else if i := strings.Index(value, " #"); i >= 0 {
			value = strings.TrimSpace(value[:i])
		}
		out = append(out, [2]string{name, value})
	}
	return out
}
