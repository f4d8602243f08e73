package openapi

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/getkin/kin-openapi/openapi3"
)

// Version segments of a path (in snake_case) that never name a resource:
// "v1", "v2beta1", "v2_1", "3", "2010_04_01", "api" (and "rest" when it
// opens the path, as in Jira's /rest/api/3/...).
var (
	versionWord   = regexp.MustCompile(`^v[0-9]+(_[0-9]+)*([a-z]+[0-9]*)?$`)
	numericOrDate = regexp.MustCompile(`^[0-9]+(_[0-9]+)*$`)
)

// isVersionSegment reports whether the i-th non-parameter segment s (in
// snake_case) of a path is an API version or prefix, not a name.
func isVersionSegment(s string, i int) bool {
	return s == "api" || (s == "rest" && i == 0) || versionWord.MatchString(s) || numericOrDate.MatchString(s)
}

// trimFormat drops a format suffix of a path segment (Twilio's
// Calls.json) and the read verb of a dotted method name (Slack's
// /conversations.list and /conversations.history are conversations).
func trimFormat(seg string) string {
	for _, ext := range []string{".json", ".xml", ".csv"} {
		if strings.HasSuffix(strings.ToLower(seg), ext) && len(seg) > len(ext) {
			return seg[:len(seg)-len(ext)]
		}
	}
	if i := strings.LastIndexByte(seg, '.'); i > 0 && readWords[SnakeCase(seg[i+1:])] {
		return seg[:i]
	}
	return seg
}

var tagVersion = regexp.MustCompile(`^(api|rest)?v?[0-9]+$`)

// serviceName is the snake_case of a tag without leading version words
// (Twilio's tag Api20100401Account gives account).
func serviceName(tag string) string {
	words := strings.Split(SnakeCase(tag), "_")
	for len(words) > 1 && (tagVersion.MatchString(words[0]) || words[0] == "api") {
		words = words[1:]
	}
	return writable(strings.Join(words, "_"))
}

// sameWord reports whether a path segment names the service (equal, or
// its singular or plural: tag "Issues", segment "issue").
func sameWord(seg, service string) bool {
	return seg == service || Plural(seg) == Plural(service)
}

// rootName names the resource of a GET whose path has no name segment (GET
// / or GET /{bucket}) and whose operation has no tag: after its
// operationId (without a leading get/list/read/fetch/describe word), else
// after the document's title, else "root".
func rootName(doc *openapi3.T, op *openapi3.Operation) string {
	if id := op.OperationID; id != "" {
		if i := strings.LastIndexAny(id, "/."); i >= 0 {
			id = id[i+1:]
		}
		n := SnakeCase(id)
		for _, verb := range []string{"get_", "list_", "read_", "fetch_", "describe_", "retrieve_"} {
			if strings.HasPrefix(n, verb) && len(n) > len(verb) {
				n = n[len(verb):]
				break
			}
		}
		if n != "" && !readVerbs[n] {
			return writable(n)
		}
	}
	if doc != nil && doc.Info != nil {
		if n := SnakeCase(doc.Info.Title); n != "" {
			return writable(n)
		}
	}
	return "root"
}

var readVerbs = map[string]bool{"get": true, "list": true, "read": true, "fetch": true, "describe": true, "retrieve": true, "index": true}

// writable makes a name part usable in SQL without quotes: one that would
// start with a digit gets the prefix "n" ("2fa" gives n2fa).
func writable(s string) string {
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		return "n" + s
	}
	return s
}

// changeVerbs are the words that, opening an operation's name (the part
// of its operationId after the last '/' or '.'), or its summary, say the
// GET changes state: Slack's auth.revoke, apps.uninstall, chat.delete.
var changeVerbs = map[string]bool{
	"delete": true, "remove": true, "create": true, "update": true, "revoke": true,
	"uninstall": true, "install": true, "reset": true, "send": true, "trigger": true,
	"cancel": true, "archive": true, "unarchive": true, "invite": true, "kick": true,
	"leave": true, "join": true, "rename": true, "approve": true, "reject": true,
	"enable": true, "disable": true, "restart": true, "reboot": true, "purge": true,
	"destroy": true, "put": true, "patch": true, "submit": true,
	"execute": true, "set": true, "add": true, "insert": true, "upload": true,
	"mark": true, "rotate": true, "regenerate": true, "pin": true, "unpin": true,
	"close": true, "open": true, "kill": true, "terminate": true, "publish": true,
	"unpublish": true, "push": true, "share": true, "unshare": true,
}

// summaryVerbs are the change words trusted at the start of a summary
// (words such as "Post", "Open" or "Set" may be nouns there).
var summaryVerbs = map[string]bool{
	"delete": true, "remove": true, "create": true, "update": true, "revoke": true,
	"uninstall": true, "install": true, "reset": true, "send": true, "trigger": true,
	"cancel": true, "unarchive": true, "invite": true, "kick": true,
	"rename": true, "approve": true, "reject": true, "restart": true, "reboot": true,
	"purge": true, "destroy": true, "submit": true, "rotate": true,
	"regenerate": true, "terminate": true,
}

// readWords in an operation's name say it reads, whatever else it says
// (Azure's Trigger_Get, Schedule_List).
var readWords = map[string]bool{
	"get": true, "list": true, "read": true, "fetch": true, "describe": true, "show": true,
	"check": true, "search": true, "query": true, "retrieve": true, "count": true, "find": true,
	"info": true, "history": true, "status": true, "lookup": true, "export": true,
	"can": true,
}

// changesState reports why a GET is left out as side-effecting, or "". It
// is judged conservatively on the words of the operation's name (the
// operationId after its last '/' or '.', in snake_case): its first word
// among changeVerbs, or its last word among summaryVerbs (auth_revoke,
// apps_uninstall), unless some word of the operationId says it reads
// (readWords: Trigger_Get, conversations_list, Get.Count.openShifts);
// on the method word of an RPC-style path (/dialog.open, /views.publish:
// the one word after the last dot of the last segment, among
// changeVerbs); and, when the operationId has no read word, on the first
// word of its summary among summaryVerbs (a trailing "s" of "Revokes"
// dropped). GitHub operations (x-github) are never judged: their GETs are
// reads.
func changesState(op *openapi3.Operation, path string) string {
	if _, ok := xGitHub(op); ok {
		return ""
	}
	// Swagger codegen's createGroupUsingGET names the HTTP method, not a read.
	id := strings.TrimSuffix(strings.TrimSuffix(op.OperationID, "UsingGET"), "_using_get")
	reads := false
	for _, w := range strings.Split(SnakeCase(id), "_") {
		reads = reads || readWords[w]
	}
	if id != "" {
		last := id
		if i := strings.LastIndexAny(last, "/."); i >= 0 {
			last = last[i+1:]
		}
		words := strings.Split(SnakeCase(last), "_")
		if first, end := words[0], words[len(words)-1]; !reads && (changeVerbs[first] || summaryVerbs[end]) {
			w := first
			if !changeVerbs[first] {
				w = end
			}
			return "changes state: its operationId " + id + " says " + w
		}
	}
	// An RPC-style path names its method after a dot (Slack's
	// /dialog.open, /views.publish): that word is the verb.
	if last := path[strings.LastIndexByte(path, '/')+1:]; !strings.Contains(last, "{") {
		if i := strings.LastIndexByte(last, '.'); i > 0 {
			words := strings.Split(SnakeCase(last[i+1:]), "_")
			if len(words) == 1 && changeVerbs[words[0]] {
				return "changes state: its path " + path + " says " + words[0]
			}
		}
	}
	if s := strings.TrimSpace(op.Summary); s != "" && !reads {
		w := firstWord(SnakeCase(strings.Fields(s)[0]))
		for _, c := range []string{w, strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es")} {
			if c != "" && summaryVerbs[c] {
				return "changes state: its summary says " + strings.Fields(s)[0]
			}
		}
	}
	return ""
}

func firstWord(s string) string {
	if i := strings.IndexByte(s, '_'); i >= 0 {
		return s[:i]
	}
	return s
}

// asciiFold drops the diacritics of letters (ü gives u) and turns every
// other non-ASCII character into a space (a word separator for SnakeCase).
func asciiFold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// a combining mark: dropped
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}
