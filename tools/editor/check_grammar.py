#!/usr/bin/env python3
"""Checks tools/editor/tile.tmLanguage.json against the compiler and every example.

A small TextMate tokenizer (match / begin-end / patterns / include / repository /
captures, with the begin-end semantics of vscode-textmate: the earliest match wins, an
end pattern wins a tie unless applyEndPatternLast) runs the grammar over .tile files
with Python's `re`. Checked, per file:

  * every regex compiles, and uses only the part of Oniguruma that Python's `re` reads
    the same way (no \\G, \\h, \\z, \\p{..}, [[:alpha:]], (?m), ...): anything else is
    rejected rather than silently tokenised differently than in an editor;
  * every begin rule ends (a region still open at the end of the file is an error);
  * every character that is not whitespace has a scope, except names
    ([A-Za-z_][A-Za-z0-9_]*, whole), which may stay plain;
  * every keyword of compiler/Frontend/Lexer.cpp (its `.Case("...", TokenKind::Kw...)`
    table) gets a keyword scope wherever it appears outside comments and strings, and no
    other name gets one; each keyword, each builtin of compiler/Frontend/SemaExpr.cpp and
    each type name of compiler/Frontend/Types.cpp is also checked on a line of its own,
    so that one no example uses is still covered;
  * no `invalid.*` scope, except in files matching --allow-invalid (the lexer's own
    error tests, whose text is invalid on purpose);
  * with --require-all-scopes, each kind of scope the grammar exists for turns up in
    the files at least once (a rule that silently stopped matching fails).

Exit status 0 when all is well, 1 with `file:line:col: error: ...` lines otherwise.
`--self-test` breaks the grammar and the keyword table in several ways and checks that
each breakage is reported. `--dump FILE` prints the tokens of one file with their scopes.
"""

import argparse
import copy
import fnmatch
import json
import os
import re
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))

IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
PIECE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_]*|[^A-Za-z0-9_]+")
WORD_RE = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*")
WHITESPACE = " \t\f\r\n"
IDENT_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

# Scope roots that count as "a keyword scope" for the lexer's keywords: keyword.* for
# most, storage.type.* for def / lambda / class (as in the Python grammars), and
# constant.language.* for True / False / None.
KEYWORD_SCOPE_ROOTS = ("keyword.", "storage.type.", "constant.language.")

# Each of these scope prefixes must occur in the examples: a rule that silently stops
# matching (a typo in a regex, a lost include) fails the check.
REQUIRED_SCOPES = [
    "comment.line.number-sign", "punctuation.definition.comment",
    "string.quoted.double", "string.quoted.triple", "constant.character.escape",
    "constant.numeric.integer.decimal", "constant.numeric.integer.hexadecimal",
    "constant.numeric.integer.octal", "constant.numeric.integer.binary",
    "constant.numeric.float", "constant.language.boolean", "constant.language.none",
    "keyword.control.flow", "keyword.control.import", "keyword.operator.logical",
    "storage.type.function", "entity.name.function", "variable.parameter.function",
    "punctuation.definition.decorator", "entity.name.function.decorator",
    "variable.parameter.kernel-option", "storage.type.primitive", "storage.type.constexpr",
    "storage.modifier.pointer", "support.function.builtin", "support.constant.float",
    "support.function.method", "support.variable.property", "entity.name.namespace",
    "variable.parameter.function-call", "keyword.operator.arithmetic",
    "keyword.operator.comparison", "keyword.operator.bitwise", "keyword.operator.assignment",
    "keyword.operator.assignment.augmented", "punctuation.separator.continuation.line",
    "punctuation.terminator.statement",
]

# Oniguruma constructs that Python's re rejects is fine (compile error); these are the
# ones it would accept with another meaning, or that vscode-textmate treats specially.
FORBIDDEN = [
    (re.compile(r"\\G"), "\\G (the anchor at the end of the previous match)"),
    (re.compile(r"\\[hHKRXOy]"), "an Oniguruma-only escape (\\h \\H \\K \\R \\X \\O \\y)"),
    (re.compile(r"\\[zZ]"), "\\z / \\Z (they differ between Oniguruma and Python)"),
    (re.compile(r"\\[pP]\{"), "a Unicode property \\p{...}"),
    (re.compile(r"\\x\{"), "\\x{...}"),
    (re.compile(r"\[\[:"), "a POSIX bracket [[:...:]]"),
    (re.compile(r"\(\?[a-zA-Z]*[msu][a-zA-Z]*[:)]"), "the inline flags m, s or u "
     "((?m) means dot-all in Oniguruma)"),
    (re.compile(r"\(\?~"), "an absent operator (?~...)"),
    (re.compile(r"&&"), "&& (class intersection in Oniguruma)"),
]

RULE_KEYS = {"name", "contentName", "match", "begin", "end", "patterns", "include",
             "repository", "captures", "beginCaptures", "endCaptures", "comment",
             "applyEndPatternLast", "disabled"}
GRAMMAR_KEYS = {"$schema", "name", "scopeName", "fileTypes", "patterns", "repository",
                "comment", "uuid", "firstLineMatch", "version", "information_for_contributors"}

BACKREF_RE = re.compile(r"\\([1-9])")


class GrammarError(Exception):
    pass


def strip_escaped_backslashes(rx):
    """rx with every escaped backslash removed, so that what follows a lone '\\' is an escape."""
    return rx.replace("\\\\", "")


def compile_regex(rx, where, problems):
    if not isinstance(rx, str):
        problems.append("%s: the regex is not a string" % where)
        return None
    plain = strip_escaped_backslashes(rx)
    for bad, what in FORBIDDEN:
        if bad.search(plain):
            problems.append("%s: regex %s uses %s, which Python's re does not read as "
                            "Oniguruma does" % (where, json.dumps(rx), what))
            return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return re.compile(rx)
    except (re.error, FutureWarning, DeprecationWarning) as e:
        problems.append("%s: regex %s does not compile: %s" % (where, json.dumps(rx), e))
        return None


class Rule:
    __slots__ = ("kind", "name", "content_name", "regex", "end_source", "end_regex",
                 "end_has_backrefs", "captures", "begin_captures", "end_captures", "patterns",
                 "end_last", "where")


class Grammar:
    """A loaded grammar: every rule validated and its regexes compiled."""

    def __init__(self, data):
        self.problems = []
        if not isinstance(data, dict):
            raise GrammarError("the grammar is not a JSON object")
        for k in data:
            if k not in GRAMMAR_KEYS:
                self.problems.append("unknown top-level key %s" % json.dumps(k))
        self.scope_name = data.get("scopeName")
        if self.scope_name != "source.tile":
            self.problems.append("scopeName is %s, not \"source.tile\"" %
                                 json.dumps(self.scope_name))
        self.data = data
        self.repo = data.get("repository", {})
        self._cache = {}
        self.used = set()
        self.root = self._container(data, "patterns", [self.repo])
        for key in self.repo:
            if key not in self.used:
                self.problems.append("repository rule %s is never included" %
                                     json.dumps(key))

    def _check_name(self, name, where):
        if name is None:
            return None
        if not isinstance(name, str) or not name.strip():
            self.problems.append("%s: a name must be a non-empty string" % where)
            return None
        for part in name.split():
            if not re.fullmatch(r"[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)*\.tile", part):
                self.problems.append("%s: scope %s is not lower-case dotted words ending in "
                                     "'.tile'" % (where, json.dumps(part)))
        return name.split()

    def _captures(self, caps, where):
        if caps is None:
            return {}
        out = {}
        if not isinstance(caps, dict):
            self.problems.append("%s: captures must be an object" % where)
            return out
        for k, v in caps.items():
            if not k.isdigit():
                self.problems.append("%s: capture key %s is not a group number" %
                                     (where, json.dumps(k)))
                continue
            if not isinstance(v, dict) or set(v) - {"name", "comment"}:
                self.problems.append("%s: capture %s: only \"name\" is supported (patterns "
                                     "inside captures are not)" % (where, k))
                continue
            names = self._check_name(v.get("name"), "%s capture %s" % (where, k))
            if names:
                out[int(k)] = names
        return out

    def _container(self, obj, key, repos):
        """The flattened list of match/begin rules of obj[key] (includes resolved)."""
        pats = obj.get(key, [])
        where = obj.get("_where", "grammar")
        if not isinstance(pats, list):
            self.problems.append("%s: patterns must be a list" % where)
            return []
        out = []
        for i, p in enumerate(pats):
            out.extend(self._flatten(p, "%s.patterns[%d]" % (where, i), repos, ()))
        return out

    def _flatten(self, p, where, repos, seen):
        if not isinstance(p, dict):
            self.problems.append("%s: a rule must be an object" % where)
            return []
        if p.get("disabled"):
            return []
        unknown = set(p) - RULE_KEYS - {"_where"}
        if "while" in p:
            self.problems.append("%s: 'while' rules are not supported" % where)
            return []
        if unknown:
            self.problems.append("%s: unknown keys %s" % (where, sorted(unknown)))
        if "repository" in p:
            repos = [p["repository"]] + repos
        if "include" in p:
            if set(p) - {"include", "comment", "_where"}:
                self.problems.append("%s: an include rule has other keys" % where)
            inc = p["include"]
            if inc in ("$self", "$base", self.scope_name):
                return self._flatten({"patterns": self.data.get("patterns", []),
                                      "_where": "grammar"}, where, repos, seen + ("$self",)) \
                    if "$self" not in seen else []
            if not isinstance(inc, str) or not inc.startswith("#"):
                self.problems.append("%s: include %s: only #name, $self and $base are "
                                     "supported" % (where, json.dumps(inc)))
                return []
            key = inc[1:]
            target = None
            for r in repos:
                if key in r:
                    target = r[key]
                    break
            if target is None:
                self.problems.append("%s: include %s names no repository rule" %
                                     (where, json.dumps(inc)))
                return []
            self.used.add(key)
            if key in seen:
                return []  # a cycle: its rules are already in the list
            return self._flatten(target, "repository." + key, repos, seen + (key,))
        has_match, has_begin = "match" in p, "begin" in p
        if has_match and has_begin:
            self.problems.append("%s: a rule has both match and begin" % where)
            return []
        if has_match or has_begin:
            return [self._rule(p, where, repos)]
        if "patterns" in p:
            if "name" in p or "contentName" in p:
                self.problems.append("%s: a name on a rule with only patterns is ignored by "
                                     "editors" % where)
            out = []
            for i, q in enumerate(p["patterns"]):
                out.extend(self._flatten(q, "%s.patterns[%d]" % (where, i), repos, seen))
            return out
        self.problems.append("%s: a rule with neither match, begin, include nor patterns" % where)
        return []

    def _rule(self, p, where, repos):
        ident = id(p)
        if ident in self._cache:
            return self._cache[ident]
        r = Rule()
        self._cache[ident] = r
        r.where = where
        r.name = self._check_name(p.get("name"), where)
        r.content_name = self._check_name(p.get("contentName"), where)
        r.end_last = bool(p.get("applyEndPatternLast"))
        r.patterns = []
        if "match" in p:
            r.kind = "match"
            r.regex = compile_regex(p["match"], where + ".match", self.problems)
            r.captures = self._captures(p.get("captures"), where)
            for k in ("beginCaptures", "endCaptures", "patterns", "contentName", "end"):
                if k in p:
                    self.problems.append("%s: a match rule has %s" % (where, json.dumps(k)))
            return r
        r.kind = "begin"
        r.regex = compile_regex(p["begin"], where + ".begin", self.problems)
        if "end" not in p:
            self.problems.append("%s: a begin rule has no end" % where)
            r.end_source, r.end_regex, r.end_has_backrefs = None, None, False
        else:
            r.end_source = p["end"]
            r.end_has_backrefs = isinstance(p["end"], str) and bool(
                BACKREF_RE.search(strip_escaped_backslashes(p["end"])))
            if r.end_has_backrefs:
                # Compiled per region, with the begin's text; check it with a placeholder.
                compile_regex(BACKREF_RE.sub("x", p["end"]), where + ".end", self.problems)
                r.end_regex = None
            else:
                r.end_regex = compile_regex(p["end"], where + ".end", self.problems)
        both = self._captures(p.get("captures"), where)
        r.begin_captures = self._captures(p.get("beginCaptures"), where + ".beginCaptures") or both
        r.end_captures = self._captures(p.get("endCaptures"), where + ".endCaptures") or both
        r.captures = {}
        r.patterns = self._container(dict(p, _where=where), "patterns", repos)
        return r


class Frame:
    __slots__ = ("rule", "scopes", "end", "line", "col")

    def __init__(self, rule, scopes, end, line, col):
        self.rule, self.scopes, self.end, self.line, self.col = rule, scopes, end, line, col


def split_lines(text):
    """Lines with their '\\n' (the last may lack one); only '\\n' ends a line, as in editors."""
    parts = text.split("\n")
    lines = [s + "\n" for s in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def tokenize(grammar, text, problems, label, open_regions=None):
    """Per line, the line and a list (one entry per character) of scope tuples. Regions
    still open at the end go to open_regions when given, else to problems."""
    root = Frame(None, (), None, 0, 0)
    stack = [root]
    out = []
    for lineno, line in enumerate(split_lines(text), 1):
        scopes = [None] * len(line)
        pos = 0
        guard = 0
        last_push = None
        while pos <= len(line):
            guard += 1
            if guard > 10 * (len(line) + 10):
                problems.append("%s:%d:%d: error: the grammar loops without advancing" %
                                (label, lineno, pos + 1))
                break
            top = stack[-1]
            patterns = top.rule.patterns if top.rule else grammar.root
            best, best_rule, is_end = None, None, False
            if top.end is not None and not top.rule.end_last:
                m = top.end.search(line, pos)
                if m:
                    best, is_end = m, True
            for rule in patterns:
                if rule.regex is None:
                    continue
                m = rule.regex.search(line, pos)
                if m and (best is None or m.start() < best.start()):
                    best, best_rule, is_end = m, rule, False
                    if m.start() == pos:
                        break
            if top.end is not None and top.rule.end_last:
                m = top.end.search(line, pos)
                if m and (best is None or m.start() < best.start()):
                    best, best_rule, is_end = m, None, True
            if best is None:
                for i in range(pos, len(line)):
                    scopes[i] = top.scopes
                break
            for i in range(pos, best.start()):
                scopes[i] = top.scopes
            if is_end:
                rule = top.rule
                base = top.scopes[:len(top.scopes) - len(rule.content_name or ())]
                fill(scopes, best, base, rule.end_captures)
                stack.pop()
                pos = best.end()
                last_push = None
                continue
            rule = best_rule
            base = top.scopes + tuple(rule.name or ())
            if rule.kind == "match":
                fill(scopes, best, base, rule.captures)
                if best.end() == best.start():
                    problems.append("%s:%d:%d: error: %s matched empty text" %
                                    (label, lineno, pos + 1, rule.where))
                    if pos < len(line):
                        scopes[pos] = top.scopes
                    pos += 1
                else:
                    pos = best.end()
                continue
            # A begin rule opens a region.
            if best.end() == best.start() and last_push == (pos, id(rule)):
                problems.append("%s:%d:%d: error: %s begins again without advancing" %
                                (label, lineno, pos + 1, rule.where))
                pos += 1
                continue
            fill(scopes, best, base, rule.begin_captures)
            end = rule.end_regex
            if rule.end_has_backrefs:
                src = BACKREF_RE.sub(lambda g: re.escape(best.group(int(g.group(1))) or ""),
                                     rule.end_source)
                end = compile_regex(src, rule.where + ".end", problems)
            if end is None:
                end = re.compile(r"(?!)")
            stack.append(Frame(rule, base + tuple(rule.content_name or ()), end, lineno,
                               best.start() + 1))
            last_push = (best.end(), id(rule))
            pos = best.end()
        out.append((line, scopes))
    for f in stack[1:]:
        (problems if open_regions is None else open_regions).append("%s:%d:%d: error: %s (%s) begins here and never ends" %
                        (label, f.line, f.col, f.rule.where, " ".join(f.rule.name or ()) or
                         "unnamed"))
    return out


def fill(scopes, m, base, captures):
    for i in range(m.start(), m.end()):
        scopes[i] = base
    for g in sorted(captures):
        if g > (m.re.groups or 0):
            continue
        s, e = m.span(g)
        if s < 0:
            continue
        for i in range(s, e):
            scopes[i] = scopes[i] + tuple(captures[g])


def has_root(scopes, roots):
    return any(s.startswith(roots) for s in scopes)


def check_text(grammar, text, label, keywords, allow_invalid, problems, seen_scopes):
    """The per-file checks; returns the tokenised lines."""
    open_regions = []
    lines = tokenize(grammar, text, problems, label, open_regions)
    if not allow_invalid:
        problems.extend(open_regions)
    for lineno, (line, scopes) in enumerate(lines, 1):
        for sc in scopes:
            seen_scopes.update(sc)
        # Characters with no scope: only whole names may be plain.
        i = 0
        while i < len(line):
            if scopes[i] or line[i] in WHITESPACE:
                i += 1
                continue
            j = i
            while j < len(line) and not scopes[j] and line[j] not in WHITESPACE:
                j += 1
            # Split the plain run into names and the rest; a name is fine when it is
            # whole (not the end of a scoped number or the start of a scoped word).
            for piece in PIECE_RE.finditer(line, i, j):
                s, e = piece.span()
                whole = not (s > 0 and line[s - 1] in IDENT_CHARS) and \
                    not (e < len(line) and line[e] in IDENT_CHARS)
                if not (IDENT_RE.match(piece.group()) and whole):
                    problems.append("%s:%d:%d: error: %s has no scope (only whole names may "
                                    "be plain)" % (label, lineno, s + 1, json.dumps(piece.group())))
            i = j
        # Keywords: a keyword scope for the lexer's keywords, and for nothing else.
        for m in WORD_RE.finditer(line):
            w = m.group()
            first = scopes[m.start()] or ()
            if has_root(first, ("comment.", "string.", "invalid.")):
                continue
            word_scopes = [scopes[k] or () for k in range(m.start(), m.end())]
            if w in keywords:
                if not all(has_root(s, KEYWORD_SCOPE_ROOTS) for s in word_scopes):
                    problems.append("%s:%d:%d: error: keyword '%s' (Lexer.cpp) has no keyword "
                                    "scope: %s" % (label, lineno, m.start() + 1, w,
                                                   " ".join(first) or "no scope"))
            elif any(has_root(s, ("keyword.",)) for s in word_scopes):
                problems.append("%s:%d:%d: error: '%s' has a keyword scope but Lexer.cpp has "
                                "no such keyword" % (label, lineno, m.start() + 1, w))
        # Invalid text.
        if not allow_invalid:
            k = 0
            while k < len(line):
                sc = scopes[k] or ()
                bad = [s for s in sc if s.startswith("invalid.")]
                if bad:
                    j = k
                    while j < len(line) and (scopes[j] or ()) == sc:
                        j += 1
                    problems.append("%s:%d:%d: error: %s is marked %s" %
                                    (label, lineno, k + 1, json.dumps(line[k:j]), bad[0]))
                    k = j
                else:
                    k += 1
    return lines


def extract_keywords(path):
    src = read(path)
    kws = re.findall(r'\.Case\("([A-Za-z_][A-Za-z0-9_]*)",\s*TokenKind::Kw\w+\)', src)
    if len(kws) < 5:
        raise GrammarError("%s: found %d keywords in the .Case(\"...\", TokenKind::Kw...) "
                           "table; has it moved?" % (path, len(kws)))
    return set(kws)


def extract_builtins(path):
    """The builtin functions (lookupBuiltin's .Case(..., Builtin::...)) and the other names
    of kBuiltinNames (values such as inf and nan)."""
    src = read(path)
    listed = set()
    m = re.search(r"kBuiltinNames\[\]\s*=\s*\{(.*?)\};", src, re.S)
    if m:
        listed.update(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', m.group(1)))
    functions = set(re.findall(r'\.Case\("([A-Za-z_][A-Za-z0-9_]*)",\s*Builtin::', src))
    for group in re.findall(r"\.Cases\(\{([^}]*)\},\s*Builtin::", src):
        functions.update(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', group))
    if len(functions) < 10 or not listed:
        raise GrammarError("%s: found %d builtin functions (.Case(\"...\", Builtin::...)) and %d "
                           "names in kBuiltinNames; have they moved?" %
                           (path, len(functions), len(listed)))
    return functions, listed - functions


def extract_types(path):
    src = read(path)
    names = set()
    for group in re.findall(r"\.Cases\(\{([^}]*)\},\s*ScalarKind::", src):
        names.update(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', group))
    names.update(re.findall(r'\.Case\("([A-Za-z_][A-Za-z0-9_]*)",\s*ScalarKind::', src))
    if len(names) < 5:
        raise GrammarError("%s: found %d scalar type names (.Cases({...}, ScalarKind::...)); "
                           "have they moved?" % (path, len(names)))
    return names


def scopes_of(grammar, text, needle, problems, label):
    """The scopes of each character of the first `needle` in a one-line text."""
    lines = tokenize(grammar, text, problems, label)
    line, scopes = lines[0]
    at = line.index(needle)
    return [scopes[k] or () for k in range(at, at + len(needle))]


def check_vocabulary(grammar, keywords, builtins, types, problems):
    """Each keyword, builtin and type name on a line of its own."""
    for kw in sorted(keywords):
        for text in ("%s\n" % kw, "    x = %s\n" % kw):
            sc = scopes_of(grammar, text, kw, problems, "<keyword %s>" % kw)
            if not all(has_root(s, KEYWORD_SCOPE_ROOTS) for s in sc):
                problems.append("<keyword %s>: error: keyword '%s' of Lexer.cpp gets no keyword "
                                "scope in %s (scopes: %s)" %
                                (kw, kw, json.dumps(text), " ".join(sc[0]) or "none"))
                break
    functions, values = builtins
    for b in sorted(functions | values):
        texts = ["y = %s\n" % b, "y = tl.%s\n" % b]
        if b in functions:
            texts += ["y = %s(x)\n" % b, "y = tl.%s(x)\n" % b]
        for text in texts:
            sc = scopes_of(grammar, text, b, problems, "<builtin %s>" % b)
            if not all(has_root(s, ("support.",)) for s in sc):
                problems.append("<builtin %s>: error: builtin '%s' of SemaExpr.cpp gets no "
                                "support.* scope in %s (scopes: %s)" %
                                (b, b, json.dumps(text), " ".join(sc[0]) or "none"))
                break
    for t in sorted(types) + ["constexpr"]:
        star = "" if t == "constexpr" else "*"
        for text in ("def f(x: %s%s, y: tl.%s):\n" % (star, t, t), "z = zeros((4,), %s)\n" % t):
            problems_before = len(problems)
            lines = tokenize(grammar, text, problems, "<type %s>" % t)
            line, scopes = lines[0]
            for m in re.finditer(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(t), line):
                sc = [scopes[k] or () for k in range(m.start(), m.end())]
                if not all(has_root(s, ("storage.type.",)) for s in sc):
                    problems.append("<type %s>: error: type '%s' gets no storage.type.* scope "
                                    "in %s" % (t, t, json.dumps(text)))
            if star and text.startswith("def"):
                k = line.index("*")
                if not has_root(scopes[k] or (), ("storage.modifier.pointer",)):
                    problems.append("<type %s>: error: the '*' of '*%s' is not "
                                    "storage.modifier.pointer in %s" % (t, t, json.dumps(text)))
            if len(problems) > problems_before:
                break


def check_extension(folder, grammar_path, problems):
    """The VS Code manifest: the language, its configuration and the grammar it names."""
    where = os.path.join(folder, "package.json")
    try:
        manifest = json.loads(read(where))
        contributes = manifest["contributes"]
        lang = contributes["languages"][0]
        gram = contributes["grammars"][0]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        problems.append("%s: error: no contributes.languages[0] / grammars[0]: %s" % (where, e))
        return
    for key in ("name", "publisher", "version", "engines"):
        if key not in manifest:
            problems.append("%s: error: no %s" % (where, json.dumps(key)))
    if ".tile" not in lang.get("extensions", []):
        problems.append("%s: error: the language does not claim .tile files" % where)
    if gram.get("language") != lang.get("id") or gram.get("scopeName") != "source.tile":
        problems.append("%s: error: the grammar is not source.tile for language %s" %
                        (where, json.dumps(lang.get("id"))))
    named = os.path.realpath(os.path.join(folder, gram.get("path", "")))
    if named != os.path.realpath(grammar_path):
        problems.append("%s: error: the grammar path %s is not %s" %
                        (where, json.dumps(gram.get("path")), grammar_path))
    conf_path = os.path.join(folder, lang.get("configuration", ""))
    try:
        conf = json.loads(read(conf_path))
    except (OSError, ValueError) as e:
        problems.append("%s: error: language configuration: %s" % (where, e))
        return
    if conf.get("comments", {}).get("lineComment") != "#":
        problems.append("%s: error: the line comment is not '#'" % conf_path)
    regexes = list(conf.get("indentationRules", {}).values())
    regexes += [r.get(k) for r in conf.get("onEnterRules", []) for k in ("beforeText", "afterText")
                if r.get(k)]
    for rx in regexes:
        compile_regex(rx, conf_path, problems)
    rules = conf.get("indentationRules", {})
    inc = re.compile(rules.get("increaseIndentPattern", "(?!)"))
    for line in ("def k(x: *f32):", "    if n > 0:  # a comment", "    else:"):
        if not inc.search(line):
            problems.append("%s: error: increaseIndentPattern does not indent after %s" %
                            (conf_path, json.dumps(line)))


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="surrogateescape")


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for d, dirs, names in os.walk(p):
                dirs.sort()
                files.extend(os.path.join(d, n) for n in sorted(names) if n.endswith(".tile"))
        else:
            files.append(p)
    return files


def run(grammar_data, files, keywords, builtins, types, allow, required=False):
    """All checks; returns the list of problems (empty when all is well)."""
    try:
        grammar = Grammar(grammar_data)
    except GrammarError as e:
        return [str(e)]
    problems = ["grammar: error: %s" % p for p in grammar.problems]
    seen = set()
    check_vocabulary(grammar, keywords, builtins, types, problems)
    for path in files:
        label = os.path.relpath(path) if not os.path.isabs(path) else path
        rel = os.path.relpath(os.path.abspath(path), REPO)
        allow_invalid = any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(path, g) for g in allow)
        check_text(grammar, read(path), label, keywords, allow_invalid, problems, seen)
    if required:
        for r in REQUIRED_SCOPES:
            if not any(s == r + ".tile" or s.startswith(r + ".") for s in seen):
                problems.append("grammar: error: no example gets a %s.* scope (a rule that "
                                "never matches?)" % r)
    return problems


def self_test(grammar_data, keywords, builtins, types):
    """Breaks things on purpose; each breakage must be reported."""
    sample = ('@kernel(grid=(cdiv(n, BLOCK),), num_warps=4)\n'
              'def k(x: *f32, n: i32, BLOCK: constexpr = 1024):\n'
              '    """Doc."""\n'
              '    offs = program_id(0) * BLOCK + arange(0, BLOCK)  # offsets\n'
              '    if n > 0 and True:\n'
              '        pass\n'
              '    store(x + offs, load(x + offs, mask=offs < n) * 2.5e-1)\n')
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tile-grammar-self-test-%d.tile" %
                        os.getpid())
    with open(path, "w") as f:
        f.write(sample)

    def repo_rule(g, key):
        if key not in g["repository"]:
            raise GrammarError("self-test: the grammar has no repository rule %s" %
                               json.dumps(key))
        return g["repository"][key]

    def broken_regex(g):
        repo_rule(g, "expression")["patterns"].insert(0, {"match": "(unclosed",
                                                          "name": "invalid.broken.tile"})

    def oniguruma_only(g):
        repo_rule(g, "expression")["patterns"].insert(0, {"match": "\\h+",
                                                          "name": "constant.numeric.tile"})

    def never_ends(g):
        for p in repo_rule(g, "string")["patterns"]:
            if p.get("begin") == '"""':
                p["end"] = "(?!)"

    def lost_keyword(g):
        for p in repo_rule(g, "keyword")["patterns"]:
            p["match"] = p["match"].replace("|pass", "")

    def no_numbers(g):
        g["repository"]["expression"]["patterns"] = [
            p for p in repo_rule(g, "expression")["patterns"] if p.get("include") != "#number"]
        g["repository"].pop("number", None)

    def bad_include(g):
        repo_rule(g, "expression")["patterns"].append({"include": "#nowhere"})

    def stale_keyword(g):
        repo_rule(g, "keyword")["patterns"].append({"match": "\\boffs\\b",
                                                    "name": "keyword.other.tile"})

    cases = [
        ("a regex that does not compile", broken_regex, None, "does not compile"),
        ("an Oniguruma-only construct", oniguruma_only, None, "Oniguruma"),
        ("a string region whose end never matches", never_ends, None, "never ends"),
        ("'pass' dropped from the keyword rules", lost_keyword, None,
         "keyword 'pass' (Lexer.cpp) has no keyword scope"),
        ("the number rules removed", no_numbers, None, "has no scope"),
        ("an include of a missing rule", bad_include, None, "names no repository rule"),
        ("a keyword scope on a name the lexer does not reserve", stale_keyword, None,
         "has a keyword scope but Lexer.cpp has no such keyword"),
        ("a new keyword in Lexer.cpp the grammar does not know", None, "frobnicate",
         "keyword 'frobnicate' of Lexer.cpp gets no keyword scope"),
    ]
    failures = 0
    try:
        clean = run(grammar_data, [path], keywords, builtins, types, [])
        if clean:
            print("self-test: FAIL: the unbroken grammar already reports problems:")
            for p in clean:
                print("  " + p)
            return 1
        for what, mutate, extra_kw, expect in cases:
            g = copy.deepcopy(grammar_data)
            if mutate:
                mutate(g)
            kws = keywords | {extra_kw} if extra_kw else keywords
            problems = run(g, [path], kws, builtins, types, [])
            hit = [p for p in problems if expect in p]
            if hit:
                print("self-test: detected %s: %s" % (what, hit[0]))
            else:
                failures += 1
                print("self-test: FAIL: %s was not reported (expected %s); got %d other "
                      "problem(s)" % (what, json.dumps(expect), len(problems)))
    finally:
        os.unlink(path)
    print("self-test: %d of %d breakages detected" % (len(cases) - failures, len(cases)))
    return 1 if failures else 0


def dump(grammar_data, path):
    grammar = Grammar(grammar_data)
    problems = list(grammar.problems)
    lines = tokenize(grammar, read(path), problems, path)
    for lineno, (line, scopes) in enumerate(lines, 1):
        k = 0
        while k < len(line):
            j = k
            while j < len(line) and scopes[j] == scopes[k]:
                j += 1
            text = line[k:j]
            if text.strip():
                print("%d:%d %s  %s" % (lineno, k + 1, json.dumps(text),
                                        " ".join(scopes[k] or ()) or "-"))
            k = j
    for p in problems:
        print(p)
    return 1 if problems else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", help=".tile files or folders searched recursively "
                    "(default: lang-examples and test)")
    ap.add_argument("--grammar", default=os.path.join(HERE, "tile.tmLanguage.json"))
    ap.add_argument("--lexer", default=os.path.join(REPO, "compiler/Frontend/Lexer.cpp"))
    ap.add_argument("--builtins", default=os.path.join(REPO, "compiler/Frontend/SemaExpr.cpp"))
    ap.add_argument("--types", default=os.path.join(REPO, "compiler/Frontend/Types.cpp"))
    ap.add_argument("--allow-invalid", action="append", default=[], metavar="GLOB",
                    help="files (relative to the repository) whose text may be marked invalid "
                    "and may end inside a region: the lexer's error tests")
    ap.add_argument("--require-all-scopes", action="store_true",
                    help="fail unless the files, together, use every kind of scope the grammar "
                    "is there for (for a run over all examples)")
    ap.add_argument("--extension", metavar="DIR",
                    help="also check the VS Code extension manifest in DIR")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--dump", metavar="FILE")
    args = ap.parse_args(argv)
    try:
        grammar_data = json.loads(read(args.grammar))
    except (OSError, ValueError) as e:
        print("%s: error: %s" % (args.grammar, e))
        return 1
    if args.dump:
        return dump(grammar_data, args.dump)
    try:
        keywords = extract_keywords(args.lexer)
        builtins = extract_builtins(args.builtins)
        types = extract_types(args.types)
    except (OSError, GrammarError) as e:
        print("error: %s" % e)
        return 1
    if args.self_test:
        try:
            return self_test(grammar_data, keywords, builtins, types)
        except GrammarError as e:
            print("error: %s" % e)
            return 1
    files = collect(args.paths or [os.path.join(REPO, "lang-examples"),
                                   os.path.join(REPO, "test")])
    if not files:
        print("error: no .tile files under %s" % " ".join(args.paths))
        return 1
    problems = run(grammar_data, files, keywords, builtins, types, args.allow_invalid,
                   args.require_all_scopes)
    if args.extension:
        check_extension(args.extension, args.grammar, problems)
    for p in problems:
        print(p)
    print("checked %d files against %s (%d keywords, %d builtins, %d type names): %s" %
          (len(files), os.path.basename(args.grammar), len(keywords),
           len(builtins[0]) + len(builtins[1]),
           len(types), "%d problem(s)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
