package registry

import (
	"fmt"
	"strings"
)

// Error is a failed registry request for one package. Host lets a caller
// group the packages that could not be checked by the registry that
// refused them; nothing in it carries credentials.
type Error struct {
	Package string // the package asked for, e.g. "@scope/name"
	Host    string // host[:port] of the server that failed, without credentials
	Status  int    // HTTP status, 0 when no response arrived
	Reason  string // short and actionable, e.g. "401 unauthorized: set //host/:_authToken in .npmrc"
	Err     error  // the cause, when there is one (context.Canceled, a decoding error, ...)
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Package != "" {
		b.WriteString(e.Package)
		b.WriteString(": ")
	}
	if e.Host != "" {
		b.WriteString(e.Host)
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	if e.Err != nil && !strings.Contains(e.Reason, e.Err.Error()) {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// statusReason is the short explanation for a refusal.
func statusReason(status int, registryNerf string, hadAuth bool) string {
	switch status {
	case 401:
		if hadAuth {
			return "401 unauthorized: the registry rejected the credentials for " + registryNerf + " in .npmrc (expired token?)"
		}
		return "401 unauthorized: set an auth token for this registry in .npmrc (" + registryNerf + ":_authToken=...)"
	case 403:
		if hadAuth {
			return "403 forbidden: the credentials for " + registryNerf + " in .npmrc lack access"
		}
		return "403 forbidden: set an auth token for this registry in .npmrc (" + registryNerf + ":_authToken=...)"
	case 405:
		return "405 method not allowed: check that the registry URL in .npmrc points at an npm registry"
	case 404:
		return "404 not found in the registry"
	}
	if status >= 500 {
		return fmt.Sprintf("%d server error from the registry (tried twice)", status)
	}
	return fmt.Sprintf("unexpected HTTP status %d", status)
}
