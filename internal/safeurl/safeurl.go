// Package safeurl owns how a URL appears in a message: without user info,
// query or fragment, where keys and signed tokens hide. The registry
// client and the assisted fixer's providers both print URLs.
package safeurl

import (
	"errors"
	"fmt"
	"net/url"
)

// String is raw safe for messages.
func String(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparseable URL>"
	}
	u.User = nil
	u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = "", "", "", false
	return u.String()
}

// Error keeps a transport error's cause but drops the URL net/http wraps
// around it, which may carry a query with a secret.
func Error(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %s: %w", ue.Op, String(ue.URL), ue.Err)
	}
	return err
}
