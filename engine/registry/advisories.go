package registry

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/uptide/uptide/engine/model"
	"github.com/uptide/uptide/internal/lists"
)

// advisoriesPath is the registry's bulk advisory endpoint, the one `npm
// audit` asks: a POST of {name: [versions]}, answered with {name:
// [advisory]} for the versions some advisory covers.
const advisoriesPath = "-/npm/v1/security/advisories/bulk"

// maxAdvisoryPackages is how many packages one bulk request asks about;
// more are split over several requests.
const maxAdvisoryPackages = 500

// Advisories asks the default registry which of the given installed
// versions security advisories cover, as `npm audit` does: every package
// in one bulk request (split past maxAdvisoryPackages). Packages no
// advisory covers are absent from the result. A registry without the
// endpoint (404) is an error naming it, never a silent "no advisories".
func (c *Client) Advisories(ctx context.Context, versions map[string][]string) (map[string][]model.Advisory, error) {
	out := map[string][]model.Advisory{}
	if len(versions) == 0 {
		return out, nil
	}
	reg, err := c.registryFor("")
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(reg + advisoriesPath)
	if err != nil {
		return nil, &Error{Host: hostOf(reg), Reason: "bad registry URL"}
	}
	names := lists.SortedKeys(versions)
	for len(names) > 0 {
		batch := names[:min(len(names), maxAdvisoryPackages)]
		names = names[len(batch):]
		ask := map[string][]string{}
		for _, n := range batch {
			ask[n] = versions[n]
		}
		got, err := c.bulkAdvisories(ctx, u, reg, ask)
		if err != nil {
			return nil, err
		}
		for n, as := range got {
			if _, asked := ask[n]; asked {
				out[n] = append(out[n], as...)
			}
		}
	}
	return out, nil
}

func (c *Client) bulkAdvisories(ctx context.Context, u *url.URL, reg string, ask map[string][]string) (map[string][]model.Advisory, error) {
	plain, err := json.Marshal(ask)
	if err != nil {
		return nil, err
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(plain); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	// probe: a registry (or a proxy in front of it) that refuses the
	// endpoint says nothing about its packages, so its host is not blocked.
	req := request{pkg: "security advisories", url: u, registry: reg, accept: "application/json", body: z.Bytes(), probe: true}
	var got map[string][]model.Advisory
	err = c.get(ctx, req, func(resp *http.Response, body io.Reader) error {
		switch resp.StatusCode {
		case http.StatusOK:
		case http.StatusNotFound:
			return c.newError(req, resp.StatusCode, "the registry has no security advisory endpoint (/"+advisoriesPath+")", nil)
		default:
			return c.newError(req, resp.StatusCode, fmt.Sprintf("the advisory endpoint answered %d", resp.StatusCode), nil)
		}
		data, err := readAllLimited(body, c.maxDoc)
		if err != nil {
			return bodyError{err}
		}
		if err := json.Unmarshal(data, &got); err != nil {
			return c.newError(req, resp.StatusCode, "the advisory endpoint's answer is not the bulk advisory JSON: "+err.Error(), nil)
		}
		return nil
	})
	var re *Error
	if errors.As(err, &re) && (re.Status == http.StatusMethodNotAllowed || re.Status == http.StatusNotImplemented) {
		return nil, c.newError(req, re.Status, fmt.Sprintf("the registry does not serve security advisories (%d on /%s)", re.Status, advisoriesPath), nil)
	}
	if err != nil {
		return nil, err
	}
	return got, nil
}
