package store

import (
	"database/sql/driver"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"modernc.org/sqlite"

	"github.com/enginehq/engine/engine/result"
)

// The SQL functions the engine adds to SQLite's own (docs: README "SQL
// functions"). They are registered once, on the driver, so every store's
// connection (and the prover's) has them whatever the surface: exec, the
// shell, check and MCP run statements through this package only. Every
// one is deterministic and pure (no I/O, no clock), takes NULL to NULL,
// and bounds what it makes by the value limit (SetMaxValueBytes, the
// setting max-value-bytes) before making it, so no function can take the
// process past the bound however its input is crafted.
//
//	regexp_like(text, pattern[, flags])   1 or 0; flags: i, c, m, s
//	text REGEXP pattern                   SQLite's operator: regexp(pattern, text)
//	regexp_substr(text, pattern[, group]) the first match (or its group), NULL if none
//	regexp_replace(text, pattern, repl)   every match replaced; $1, ${name} in repl
//	regexp_count(text, pattern)           the number of matches
//	base64_decode(text)                   GitHub's line-wrapped base64 too; invalid is an error
//	base64_encode(text or blob)
//	yaml_to_json(text)                    YAML 1.2 to JSON text (funcs_yaml.go)
//	split_part(text, sep, n)              the n-th field (1-based; negative from the end)
//
// Patterns are Go's RE2 syntax (package regexp): matching is linear in
// the text, whatever the pattern, so no pattern can hang a statement.

// funcLimit is the value limit the functions bound their results by: the
// last SetMaxValueBytes of the process (every surface sets the same
// one), DefaultMaxValueBytes before any.
var funcLimit atomic.Int64

func init() {
	funcLimit.Store(DefaultMaxValueBytes)
	// Each function's arguments are counted, and NULL taken to NULL,
	// here: the functions themselves see their arguments non-NULL.
	for name, d := range map[string]struct {
		min, max int
		f        func([]driver.Value) (driver.Value, error)
	}{
		"regexp_like":    {2, 3, regexpLike},
		"regexp":         {2, 2, regexpOperator},
		"regexp_substr":  {2, 3, regexpSubstr},
		"regexp_replace": {3, 3, regexpReplace},
		"regexp_count":   {2, 2, regexpCount},
		"base64_decode":  {1, 1, base64Decode},
		"base64_encode":  {1, 1, base64Encode},
		"yaml_to_json":   {1, 1, yamlToJSON},
		"split_part":     {3, 3, splitPart},
	} {
		sqlite.MustRegisterDeterministicScalarFunction(name, -1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			if err := arity(name, args, d.min, d.max); err != nil {
				return nil, err
			}
			if anyNull(args) {
				return nil, nil
			}
			return d.f(args)
		})
	}
}

// funcLimitMarker ends the message of a function's result past the value
// limit, so that the store can tell it from other errors of the
// statement (a Go function's error reaches SQLite as text only) and
// return a LimitError naming the setting.
const funcLimitMarker = "(value limit)"

// tooLong is the error of a function whose result would be longer than
// the value limit.
func tooLong(fn string, limit int64) error {
	return fmt.Errorf("%s: the result would be longer than %d bytes %s", fn, limit, funcLimitMarker)
}

// funcTooLong reports whether err is a function's tooLong.
func funcTooLong(err error) bool {
	return err != nil && strings.Contains(err.Error(), funcLimitMarker)
}

// FuncError is an argument error of an engine SQL function.
func funcError(fn, format string, a ...any) error {
	return errors.New(fn + ": " + fmt.Sprintf(format, a...))
}

// arity checks the number of arguments (REGEXP's two are the operator's).
func arity(fn string, args []driver.Value, min, max int) error {
	if fn == "regexp" && len(args) != 2 {
		return funcError("regexp", "takes 2 arguments (pattern, text), not %d; or write text REGEXP pattern", len(args))
	}
	if len(args) < min || len(args) > max {
		want := strconv.Itoa(min)
		if max > min {
			want = fmt.Sprintf("%d or %d", min, max)
		}
		return funcError(fn, "takes %s arguments, not %d", want, len(args))
	}
	return nil
}

// anyNull reports whether an argument is NULL (the result is then NULL).
func anyNull(args []driver.Value) bool {
	for _, a := range args {
		if a == nil {
			return true
		}
	}
	return false
}

// text is an argument as SQLite's text: numbers in decimal, blobs as
// their bytes.
func text(v driver.Value) string {
	if b, ok := v.(bool); ok {
		return strconv.FormatInt(boolInt(b), 10)
	}
	return result.Text(v)
}

// integer is an integer argument; text must be a whole number.
func integer(fn, what string, v driver.Value) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case float64:
		if x == float64(int64(x)) {
			return int64(x), nil
		}
	case string, []byte:
		if n, err := strconv.ParseInt(strings.TrimSpace(text(x)), 10, 64); err == nil {
			return n, nil
		}
	}
	return 0, funcError(fn, "%s must be an integer, not %s", what, quoteArg(text(v)))
}

// quoteArg quotes an argument for a message, cut to 64 bytes.
func quoteArg(s string) string {
	if len(s) > 64 {
		i := 64
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "..."
	}
	return "'" + s + "'"
}

// patterns caches compiled patterns by flags and text: a statement that
// calls a function on every row compiles its pattern once. The cache is
// bounded; when full it starts again.
var patterns struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}

const maxCachedPatterns = 256

// compile returns the compiled pattern (with flags, regexp_like's), or an
// error naming the pattern and what is wrong with it.
func compile(fn, pattern, flags string) (*regexp.Regexp, error) {
	key := flags + "\x00" + pattern
	patterns.Lock()
	re, ok := patterns.m[key]
	patterns.Unlock()
	if ok {
		return re, nil
	}
	prefix := ""
	if flags != "" {
		set := map[byte]bool{}
		for i := 0; i < len(flags); i++ {
			switch c := flags[i]; c {
			case 'i', 'm', 's':
				set[c] = true
			case 'c':
				delete(set, 'i')
			case 'n':
				set['s'] = true // MySQL's and Oracle's "." matches a newline
			default:
				return nil, funcError(fn, "unknown flag %q in %s: use i (ignore case), c (case-sensitive), m (multi-line: ^ and $ at line ends), s (. matches a newline)", string(c), quoteArg(flags))
			}
		}
		for _, c := range []byte{'i', 'm', 's'} {
			if set[c] {
				prefix += string(c)
			}
		}
		if prefix != "" {
			prefix = "(?" + prefix + ")"
		}
	}
	re, err := regexp.Compile(prefix + pattern)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, funcError(fn, "invalid regular expression %s: %s (the syntax is RE2's: https://github.com/google/re2/wiki/Syntax)", quoteArg(pattern), msg)
	}
	patterns.Lock()
	if patterns.m == nil || len(patterns.m) >= maxCachedPatterns {
		patterns.m = map[string]*regexp.Regexp{}
	}
	patterns.m[key] = re
	patterns.Unlock()
	return re, nil
}

// regexpFunc is a SQL function over a pattern: it compiles argument at
// (with the flags of argument flagsAt when that is given, -1 for none)
// and calls do with it, so every function names a bad pattern alike.
func regexpFunc(fn string, at, flagsAt int, do func(fn string, re *regexp.Regexp, args []driver.Value) (driver.Value, error)) func([]driver.Value) (driver.Value, error) {
	return func(args []driver.Value) (driver.Value, error) {
		flags := ""
		if flagsAt >= 0 && len(args) > flagsAt {
			flags = text(args[flagsAt])
		}
		re, err := compile(fn, text(args[at]), flags)
		if err != nil {
			return nil, err
		}
		return do(fn, re, args)
	}
}

var (
	regexpLike = regexpFunc("regexp_like", 1, 2, func(_ string, re *regexp.Regexp, args []driver.Value) (driver.Value, error) {
		return boolInt(re.MatchString(text(args[0]))), nil
	})
	// regexpOperator is SQLite's REGEXP operator: X REGEXP Y calls
	// regexp(Y, X).
	regexpOperator = regexpFunc("REGEXP", 0, -1, func(_ string, re *regexp.Regexp, args []driver.Value) (driver.Value, error) {
		return boolInt(re.MatchString(text(args[1]))), nil
	})
	regexpSubstr  = regexpFunc("regexp_substr", 1, -1, regexpSubstrOf)
	regexpCount   = regexpFunc("regexp_count", 1, -1, regexpCountOf)
	regexpReplace = regexpFunc("regexp_replace", 1, -1, regexpReplaceOf)
)

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func regexpSubstrOf(fn string, re *regexp.Regexp, args []driver.Value) (driver.Value, error) {
	group := int64(0)
	if len(args) == 3 {
		var err error
		if group, err = integer(fn, "the group", args[2]); err != nil {
			return nil, err
		}
		if group < 0 || group > int64(re.NumSubexp()) {
			return nil, funcError(fn, "the pattern %s has %d group(s); the group must be 0 (the whole match) to %d, not %d", quoteArg(text(args[1])), re.NumSubexp(), re.NumSubexp(), group)
		}
	}
	s := text(args[0])
	m := re.FindStringSubmatchIndex(s)
	if m == nil || m[2*group] < 0 {
		return nil, nil
	}
	return s[m[2*group]:m[2*group+1]], nil
}

func regexpCountOf(_ string, re *regexp.Regexp, args []driver.Value) (driver.Value, error) {
	n := int64(0)
	re.ReplaceAllStringFunc(text(args[0]), func(string) string { n++; return "" })
	return n, nil
}

// maxIndexedMatches bounds the matches regexp_replace indexes at once
// when its replacement refers to groups (each costs a small slice).
const maxIndexedMatches = 1 << 18

func regexpReplaceOf(fn string, re *regexp.Regexp, args []driver.Value) (driver.Value, error) {
	s, repl := text(args[0]), text(args[2])
	limit := funcLimit.Load()
	// First the size of the result, without making it: the matches'
	// count and length (ReplaceAllStringFunc walks them as
	// ReplaceAllString does), then the exact length when the replacement
	// is literal, or an upper bound when it refers to groups (a group
	// lies within its match).
	var matches, matched int64
	re.ReplaceAllStringFunc(s, func(m string) string { matches++; matched += int64(len(m)); return "" })
	if matches == 0 {
		return s, nil
	}
	refs := int64(strings.Count(repl, "$"))
	if refs == 0 {
		if int64(len(s))-matched+matches*int64(len(repl)) > limit {
			return nil, tooLong(fn, limit)
		}
		return re.ReplaceAllLiteralString(s, repl), nil
	}
	if int64(len(s))+matches*int64(len(repl))+refs*matched <= limit {
		return re.ReplaceAllString(s, repl), nil
	}
	if matches > maxIndexedMatches {
		return nil, tooLong(fn, limit)
	}
	var out []byte
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, s[last:m[0]]...)
		out = re.ExpandString(out, repl, s, m)
		last = m[1]
		if int64(len(out)) > limit {
			return nil, tooLong(fn, limit)
		}
	}
	out = append(out, s[last:]...)
	if int64(len(out)) > limit {
		return nil, tooLong(fn, limit)
	}
	return string(out), nil
}

// base64Decode decodes standard base64 (padded or not) with any ASCII
// white space between characters: GitHub's contents API wraps its
// base64 at 60 characters with "\n". Text that is not base64 is an
// error, never NULL (a control must not pass on a file it could not
// read). The result is text when it is valid UTF-8, else a blob.
func base64Decode(args []driver.Value) (driver.Value, error) {
	const fn = "base64_decode"
	in := text(args[0])
	var b strings.Builder
	b.Grow(len(in))
	for i := 0; i < len(in); i++ {
		switch c := in[i]; c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			b.WriteByte(c)
		}
	}
	clean := b.String()
	enc := base64.StdEncoding
	if len(clean)%4 != 0 && !strings.HasSuffix(clean, "=") {
		enc = base64.RawStdEncoding
	}
	out, err := enc.Strict().DecodeString(clean)
	if err != nil {
		var ce base64.CorruptInputError
		where := ""
		if errors.As(err, &ce) {
			where = fmt.Sprintf(" at character %d", int64(ce)+1)
		}
		return nil, funcError(fn, "the text is not base64%s (white space aside, only A-Z a-z 0-9 + / and = padding)", where)
	}
	if utf8.Valid(out) {
		return string(out), nil
	}
	return out, nil
}

func base64Encode(args []driver.Value) (driver.Value, error) {
	const fn = "base64_encode"
	in := text(args[0])
	if limit := funcLimit.Load(); int64(base64.StdEncoding.EncodedLen(len(in))) > limit {
		return nil, tooLong(fn, limit)
	}
	return base64.StdEncoding.EncodeToString([]byte(in)), nil
}

// splitPart is stackql's and PostgreSQL's split_part: the n-th field of
// text split at sep, counting from 1, or from the end when n is
// negative; "" past the last field. An empty sep leaves one field, the
// whole text.
func splitPart(args []driver.Value) (driver.Value, error) {
	const fn = "split_part"
	n, err := integer(fn, "the field number", args[2])
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, funcError(fn, "fields are numbered from 1 (or from -1, the last); 0 is none")
	}
	s, sep := text(args[0]), text(args[1])
	var fields []string
	if sep == "" {
		fields = []string{s}
	} else {
		fields = strings.Split(s, sep)
	}
	if n < 0 {
		n += int64(len(fields)) + 1
		if n < 1 {
			return "", nil
		}
	}
	if n > int64(len(fields)) {
		return "", nil
	}
	return fields[n-1], nil
}
