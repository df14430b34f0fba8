// Package admin is the gusset-admin command: it creates workspaces and
// makes, lists and revokes API keys, on the Redis the services use
// (REDIS_URL). It parses arguments and prints; the rules live in
// pkg/auth.
package admin

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/model"
)

// Keys is what the command needs of auth.Service.
type Keys interface {
	CreateWorkspace(ctx context.Context, name string) (auth.Workspace, error)
	Workspaces(ctx context.Context) ([]auth.Workspace, error)
	CreateKey(ctx context.Context, ws, label string) (string, auth.Key, error)
	Keys(ctx context.Context, ws string) ([]auth.Key, error)
	Revoke(ctx context.Context, id string) (auth.Key, error)
	Workspace(ctx context.Context, name string) (auth.Workspace, error)
	SetLimits(ctx context.Context, name string, l model.Limits) (auth.Workspace, error)
}

var _ Keys = (*auth.Service)(nil)

// Usage is the command's help text.
var Usage = `usage: gusset-admin <command> [arguments]

Commands (REDIS_URL names the Redis of the service):
  workspace create NAME                        create a workspace
  workspace list                               list the workspaces
  workspace limits NAME [--LIMIT N|default]... show a workspace's own limits, or set them
                                               (N sets one, default gives it back the service's)
  key create --workspace NAME [--label TEXT]   make an API key; it is printed once, on stdout
  key list [--workspace NAME]                  list keys (id, workspace, label, created, revoked)
  key revoke ID                                revoke a key: it stops working at the next request

A workspace name is 1 to 63 lower-case letters, digits, '-' and '_'.
The API uses the keys and the workspaces' limits when it runs with
AUTH_MODE=keys. The limits (the service's default comes from the variable):
` + limitsUsage()

// ErrUsage is returned, wrapped, for arguments the command does not take.
var ErrUsage = errors.New("usage")

// Run carries out the command in args (without the program name).
// Output for scripts (a new key) goes to stdout, the rest to stderr.
func Run(ctx context.Context, args []string, keys Keys, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		return usage("give a command")
	}
	switch args[0] + " " + args[1] {
	case "workspace create":
		if len(args) != 3 {
			return usage("workspace create takes one NAME")
		}
		w, err := keys.CreateWorkspace(ctx, args[2])
		if err != nil {
			return explain(err)
		}
		fmt.Fprintf(stderr, "workspace %s created\n", w.Name)
		return nil
	case "workspace list":
		if len(args) != 2 {
			return usage("workspace list takes no arguments")
		}
		ws, err := keys.Workspaces(ctx)
		if err != nil {
			return explain(err)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "WORKSPACE\tCREATED")
		for _, w := range ws {
			fmt.Fprintf(tw, "%s\t%s\n", w.Name, w.CreatedAt.Format(time.RFC3339))
		}
		return tw.Flush()
	case "workspace limits":
		if len(args) < 3 || strings.HasPrefix(args[2], "-") {
			return usage("workspace limits takes a workspace NAME, then the limits to set")
		}
		return workspaceLimits(ctx, keys, args[2], args[3:], stdout, stderr)
	case "key create":
		fs := newFlags("key create", stderr)
		ws := fs.String("workspace", "", "the workspace the key opens")
		label := fs.String("label", "", "whose or what the key is, shown in listings")
		if err := parse(fs, args[2:]); err != nil {
			return err
		}
		if *ws == "" {
			return usage("key create needs --workspace NAME")
		}
		key, rec, err := keys.CreateKey(ctx, *ws, *label)
		if err != nil {
			return explain(err)
		}
		fmt.Fprintln(stdout, key)
		fmt.Fprintf(stderr, "key %s for workspace %s created: store it now, it cannot be shown again\n", rec.ID, rec.Workspace)
		return nil
	case "key list":
		fs := newFlags("key list", stderr)
		ws := fs.String("workspace", "", "list only this workspace's keys")
		if err := parse(fs, args[2:]); err != nil {
			return err
		}
		ks, err := keys.Keys(ctx, *ws)
		if err != nil {
			return explain(err)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tWORKSPACE\tLABEL\tCREATED\tREVOKED")
		for _, k := range ks {
			revoked := "-"
			if k.RevokedAt != nil {
				revoked = k.RevokedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.Workspace, orDash(k.Label), k.CreatedAt.Format(time.RFC3339), revoked)
		}
		return tw.Flush()
	case "key revoke":
		if len(args) != 3 {
			return usage("key revoke takes one key ID (see key list)")
		}
		k, err := keys.Revoke(ctx, args[2])
		if err != nil {
			return explain(err)
		}
		fmt.Fprintf(stderr, "key %s of workspace %s revoked at %s\n", k.ID, k.Workspace, k.RevokedAt.Format(time.RFC3339))
		return nil
	}
	return usage(fmt.Sprintf("unknown command %q", strings.Join(args[:2], " ")))
}

// workspaceLimits sets the limits of workspace name that args give, if
// any, and prints its limits.
func workspaceLimits(ctx context.Context, keys Keys, name string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("workspace limits", stderr)
	given := make([]*string, len(model.LimitDefs))
	for i, d := range model.LimitDefs {
		given[i] = fs.String(d.Name, "", "the most "+d.Noun+"; default gives back the service's ("+d.Setting+")")
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	w, err := keys.Workspace(ctx, name)
	if err != nil {
		return explain(err)
	}
	l, changed := w.Limits, false
	for i, d := range model.LimitDefs {
		v := *given[i]
		switch {
		case v == "":
			continue
		case v == "default":
			*d.Field(&l) = 0
		default:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return usage(fmt.Sprintf("--%s takes a positive whole number or default, got %q", d.Name, v))
			}
			*d.Field(&l) = n
		}
		changed = true
	}
	if changed {
		if w, err = keys.SetLimits(ctx, name, l); err != nil {
			return explain(err)
		}
		fmt.Fprintf(stderr, "limits of workspace %s set; the API applies them from its next request\n", name)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LIMIT\tWORKSPACE'S OWN\tOTHERWISE")
	for _, d := range model.LimitDefs {
		own := "-"
		if v := w.Limits.Of(d); v > 0 {
			own = strconv.FormatInt(v, 10)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Name, own, d.Setting)
	}
	return tw.Flush()
}

// limitsUsage lists the limits for Usage.
func limitsUsage() string {
	var b strings.Builder
	for _, d := range model.LimitDefs {
		fmt.Fprintf(&b, "  --%-14s the most %s (%s, default %d)\n", d.Name, d.Noun, d.Setting, d.Default)
	}
	return b.String()
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags and refuses arguments left over.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrUsage, fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return usage(fmt.Sprintf("%s: unexpected argument %q", fs.Name(), fs.Arg(0)))
	}
	return nil
}

func usage(msg string) error { return fmt.Errorf("%w: %s", ErrUsage, msg) }

// explain turns a service error into its message for a person.
func explain(err error) error {
	var me *model.Error
	if errors.As(err, &me) && me.Msg != "" {
		return errors.New(me.Msg)
	}
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
