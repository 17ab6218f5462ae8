// ibench viewer: a static site. Data files call IBV.put(key, obj); they are loaded with <script>
// tags (allowed from file://, where fetch is not). No dependencies.
"use strict";
var IBV = (function () {
  var store = {}, waiting = {}, index = null;
  var FAILED = "failed";

  function put(key, obj) {
    store[key] = obj;
    (waiting[key] || []).forEach(function (cb) { cb(obj); });
    delete waiting[key];
    if (key === "index") { index = obj; start(); }
  }

  function load(key, src) {
    return new Promise(function (resolve, reject) {
      if (store[key]) return resolve(store[key]);
      (waiting[key] = waiting[key] || []).push(resolve);
      if (document.querySelector('script[data-key="' + CSS.escape(key) + '"]')) return;
      var s = document.createElement("script");
      s.src = src; s.dataset.key = key;
      s.onerror = function () { reject(new Error("cannot load " + src)); };
      document.head.appendChild(s);
    });
  }

  // -- small helpers ---------------------------------------------------------------------------------
  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function f3(v) { return v == null ? "—" : Number(v).toFixed(3); }
  function pct(v) { return v == null ? "—" : (100 * v).toFixed(1) + "%"; }
  function num(v, d) { return v == null ? "—" : Number(v).toFixed(d || 0); }
  function vcls(v) { return "v-" + (v ? String(v).replace(/[^A-Za-z]/g, "") : "none"); }
  function badge(v) { return '<span class="verdict ' + vcls(v) + '">' + esc(v || "not judged") + "</span>"; }
  function ci(g, k) { var c = (g.ci || {})[k]; return c ? " [" + f3(c[0]) + ", " + f3(c[1]) + "]" : ""; }
  function main() { return document.getElementById("main"); }
  function setStatus(t) { document.getElementById("status").textContent = t || ""; }
  function parseHash() {
    var h = location.hash.replace(/^#\/?/, ""), q = {}, i = h.indexOf("?");
    if (i >= 0) {
      h.slice(i + 1).split("&").forEach(function (kv) {
        if (!kv) return; var p = kv.split("="); q[decodeURIComponent(p[0])] = decodeURIComponent(p[1] || "");
      });
      h = h.slice(0, i);
    }
    return { parts: h ? h.split("/").map(decodeURIComponent) : [], q: q };
  }
  function href(parts, q) {
    var s = "#/" + parts.map(encodeURIComponent).join("/"), keys = Object.keys(q || {}).filter(function (k) {
      return q[k] !== "" && q[k] != null;
    });
    if (keys.length) s += "?" + keys.map(function (k) { return encodeURIComponent(k) + "=" + encodeURIComponent(q[k]); }).join("&");
    return s;
  }
  function finalVerdict(cell, round) {
    // cell = [index, verdict round 1, round 2, ...]; round "" = the last round
    if (!round) return cell[cell.length - 1];
    var r = parseInt(round, 10);
    return r < cell.length ? cell[r] : undefined;
  }
  function matches(v, want) {
    if (!want) return true;
    if (v === undefined) return false;
    if (want === FAILED) return v !== "OK" && v != null;
    return v === want;
  }
  var DIFF = { Easy: 0, Medium: 1, Hard: 2 };

  // -- navigation -----------------------------------------------------------------------------------
  function nav(active) {
    var items = [["run", "Run"], ["tasks", "Tasks"]];
    if (index.runs.length > 1) items.push(["compare", "Compare"], ["sweep", "Sweep"]);
    document.getElementById("nav").innerHTML = items.map(function (it) {
      return '<a id="nav-' + it[0] + '" class="' + (it[0] === active ? "active" : "") + '" href="#/' + it[0] + '">' + it[1] + "</a>";
    }).join("");
  }
  function runPicker(cur, page, q) {
    if (index.runs.length < 2) return "";
    return '<label>run <select id="f-run">' + index.runs.map(function (r) {
      return '<option value="' + r.i + '"' + (r.i === cur ? " selected" : "") + ">" + esc(r.label) + "</option>";
    }).join("") + "</select></label>";
  }

  function route() {
    if (!index) return;
    var h = parseHash(), p = h.parts, page = p[0] || "run";
    window.scrollTo(0, 0);
    try {
      if (page === "run") return pageRun(parseInt(p[1] || h.q.run || "0", 10));
      if (page === "tasks") return pageTasks(h.q);
      if (page === "sample") return pageSample(parseInt(p[1], 10), p[2], parseInt(p[3], 10), h.q);
      if (page === "compare") return pageCompare(h.q);
      if (page === "side") return pageSide(p[1], parseInt(p[2], 10));
      if (page === "sweep") return pageSweep();
      main().innerHTML = "<p>Unknown page.</p>";
    } catch (e) {
      main().innerHTML = '<p class="warn">' + esc(e && e.stack || e) + "</p>";
    }
  }

  function start() {
    window.addEventListener("hashchange", route);
    route();
  }

  // -- run page --------------------------------------------------------------------------------------
  function groupTable(title, groups, ks) {
    if (!groups || !groups.length) return "";
    var h = "<h2>" + esc(title) + '</h2><table class="groups"><tr><th>group</th><th class="num">tasks</th>' +
      ks.map(function (k) { return '<th class="num">pass@' + k + " (CI)</th>"; }).join("") + "</tr>";
    groups.forEach(function (g) {
      h += "<tr><td>" + esc(g.group === "overall" ? "Overall" : g.name) + '</td><td class="num">' + g.n_tasks + "</td>" +
        ks.map(function (k) { return '<td class="num">' + f3((g.pass_at || {})[k]) + '<span class="muted">' + ci(g, k) + "</span></td>"; }).join("") + "</tr>";
    });
    return h + "</table>";
  }

  function pageRun(i) {
    nav("run");
    var r = index.runs[i] || index.runs[0], s = r.summary || {}, id = r.identity || {}, ks = s.ks || [1];
    var samp = id.sampling || {};
    var h = "<h1>" + esc(r.label) + '</h1><div class="filters">' + runPicker(r.i) + '<span class="muted">' + esc(r.dir) + "</span></div>";
    h += '<h2>Identity</h2><table class="kv" id="identity">';
    var rows = [
      ["model", (id.model || s.model || "") + (id.model_id ? " (" + id.model_id + ")" : "")],
      ["backend", id.backend], ["sampling", (samp.name || "") + "  n=" + samp.n + "  T=" + samp.temperature + "  top_p=" + samp.top_p +
        "  max_tokens=" + samp.max_tokens + (samp.reasoning_budget ? "  reasoning_budget=" + samp.reasoning_budget : "") +
        (samp.refine_rounds > 1 ? "  refine_rounds=" + samp.refine_rounds : "")],
      ["prompt", id.prompt], ["language", id.language], ["variant", id.variant],
      ["overrides", (id.overrides || []).join(" ") || "(none)"],
      ["judge", Object.keys(r.judge || {}).map(function (k) { return k + "=" + JSON.stringify(r.judge[k]); }).join("  ")],
      ["sandbox", (r.sandbox || []).join(" | ") || "—"],
      ["samples", s.n_samples + " counted, " + s.n_accepted + " accepted, " + s.n_judge_errors + " judge errors, over " + s.n_tasks + " tasks"],
      ["wall", r.meta && r.meta.wall_s != null ? r.meta.wall_s + " s" : "—"]
    ];
    var sp = r.spec || {}, tc = sp.toolchains || {};
    rows.push(["spec", "spec v" + (sp.spec_version == null ? "?" : sp.spec_version) + ", keys v" +
      (sp.key_version == null ? "?" : sp.key_version) + ", " + sp.tasks + " task(s), gen key " + ((sp.keys || {}).gen_key || "?") +
      (sp.migrated ? " (migrated from an older folder)" : "")]);
    rows.push(["code", sp.code_version || "unknown"]);
    rows.push(["toolchains", Object.keys(tc).map(function (k) { return k + ": " + (tc[k] || "—"); }).join("  |  ") || "—"]);
    rows.forEach(function (kv) { h += "<tr><td>" + esc(kv[0]) + "</td><td>" + esc(kv[1] == null ? "—" : kv[1]) + "</td></tr>"; });
    h += "</table>";
    (s.warnings || []).forEach(function (w) { h += '<div class="warn">' + esc(w) + "</div>"; });
    h += groupTable("pass@k", s.overall ? [s.overall] : [], ks);
    h += groupTable("By difficulty", s.by_difficulty, ks);
    h += groupTable("By category", s.by_category, ks);
    var fc = s.failure_counts || {}, keys = Object.keys(fc).filter(function (k) { return fc[k] > 0; }).sort(function (a, b) { return fc[b] - fc[a]; });
    h += "<h2>Failure composition</h2>";
    if (!keys.length) h += '<p class="muted">no failed samples</p>';
    else {
      h += '<table id="failures"><tr><th>label</th><th class="num">samples</th><th class="num">share</th><th></th></tr>';
      keys.forEach(function (k) {
        var fr = (s.failure_composition || {})[k] || 0;
        h += "<tr><td>" + badge(k) + '</td><td class="num">' + fc[k] + '</td><td class="num">' + pct(fr) +
          '</td><td><span class="bar" style="width:' + Math.round(200 * fr) + 'px"></span></td></tr>';
      });
      h += "</table>";
    }
    var cost = r.cost || {};
    if (cost.rows && cost.rows.length) {
      h += '<h2>Cost</h2><p class="muted">' + cost.samples + " samples, " + cost.judged + " judged, " + cost.solved_tasks +
        " solved task(s)" + (cost.priced ? "" : "; no price for this model in conf/prices.yaml") + "</p>";
      h += '<table id="cost"><tr><th></th><th class="num">total</th><th class="num">per sample</th><th class="num">per solved task</th></tr>';
      cost.rows.forEach(function (row) {
        h += "<tr><td>" + esc(row[0]) + "</td>" + row.slice(1).map(function (x) { return '<td class="num">' + esc(x) + "</td>"; }).join("") + "</tr>";
      });
      h += "</table>";
    }
    if (s.refine && s.refine.length) {
      h += '<h2>Refinement rounds</h2><table><tr><th>round</th><th class="num">refine@r</th></tr>';
      s.refine.forEach(function (row) { h += "<tr><td>" + row.round + '</td><td class="num">' + f3(row["refine@k"]) + "</td></tr>"; });
      h += "</table>";
    }
    if (r.behaviors) h += behaviorsSection(r.behaviors);
    if (r.plots && r.plots.length) {
      h += "<h2>Plots</h2>" + r.plots.map(function (p) { return '<img class="plot" alt="' + esc(p) + '" src="' + esc(p) + '">'; }).join("");
    }
    h += '<p><a id="to-tasks" href="' + href(["tasks"], { run: r.i }) + '">tasks of this run →</a></p>';
    main().innerHTML = h;
    var sel = document.getElementById("f-run");
    if (sel) sel.onchange = function () { location.hash = "#/run/" + sel.value; };
  }

  function behaviorsSection(b) {
    var h = '<h2>Reasoning behaviors</h2><p class="muted">' + esc(b.note || "") + "</p>";
    if (b.rows && b.rows.length) {
      var cols = Object.keys(b.rows[0]);
      h += '<table id="behaviors"><tr>' + cols.map(function (c) { return "<th>" + esc(c) + "</th>"; }).join("") + "</tr>";
      b.rows.forEach(function (row) {
        h += "<tr>" + cols.map(function (c) {
          var v = row[c];
          var share = ["model", "difficulty", "outcome", "samples", "segments", "unparsed"].indexOf(c) < 0;
          return "<td" + (typeof v === "number" || share ? ' class="num"' : "") + ">" + esc(share ? pct(v) : v) + "</td>";
        }).join("") + "</tr>";
      });
      h += "</table>";
    }
    if (b.png) h += '<img class="plot" alt="behaviors" src="' + esc(b.png) + '">';
    return h;
  }

  // -- tasks page ------------------------------------------------------------------------------------
  function pageTasks(q) {
    nav("tasks");
    var ri = parseInt(q.run || "0", 10), run = index.runs[ri] || index.runs[0], rows = index.tasks[run.i] || [];
    var verdicts = {}, cats = {}, diffs = {}, maxRound = 1;
    rows.forEach(function (t) {
      if (t.difficulty) diffs[t.difficulty] = 1;
      (t.categories || []).forEach(function (c) { cats[c] = 1; });
      t.cells.forEach(function (c) { maxRound = Math.max(maxRound, c.length - 1); c.slice(1).forEach(function (v) { if (v) verdicts[v] = 1; }); });
    });
    function opts(id, label, values, cur, first) {
      return "<label>" + label + ' <select id="' + id + '"><option value="">' + (first || "all") + "</option>" +
        values.map(function (v) { var val = Array.isArray(v) ? v[0] : v, t = Array.isArray(v) ? v[1] : v;
          return '<option value="' + esc(val) + '"' + (String(val) === String(cur || "") ? " selected" : "") + ">" + esc(t) + "</option>"; }).join("") +
        "</select></label>";
    }
    var rounds = []; for (var k = 1; k <= maxRound; k++) rounds.push([String(k), "round " + k]);
    var h = "<h1>Tasks — " + esc(run.label) + '</h1><div class="filters">' + runPicker(run.i) +
      opts("f-verdict", "verdict", [[FAILED, "failed (not OK)"]].concat(Object.keys(verdicts).sort()), q.verdict) +
      opts("f-difficulty", "difficulty", Object.keys(diffs).sort(function (a, b) { return (DIFF[a] || 9) - (DIFF[b] || 9); }), q.difficulty) +
      opts("f-category", "category", Object.keys(cats).sort(), q.category) +
      (maxRound > 1 ? opts("f-round", "round", rounds, q.round, "last") : "") +
      '<label>task <input id="f-text" size="16" value="' + esc(q.text || "") + '"></label><span id="count" class="muted"></span></div>';
    var sort = q.sort || "id", desc = q.desc === "1";
    var shown = rows.filter(function (t) {
      if (q.difficulty && t.difficulty !== q.difficulty) return false;
      if (q.category && (t.categories || []).indexOf(q.category) < 0) return false;
      if (q.text && t.id.indexOf(q.text) < 0) return false;
      if (q.verdict && !t.cells.some(function (c) { return matches(finalVerdict(c, q.round), q.verdict); })) return false;
      if (q.round && !t.cells.some(function (c) { return finalVerdict(c, q.round) !== undefined; })) return false;
      return true;
    });
    function key(t) {
      if (sort === "difficulty") return DIFF[t.difficulty] != null ? DIFF[t.difficulty] : 9;
      if (sort === "categories") return (t.categories || []).join(",");
      if (sort === "pass1") return t.pass["1"] == null ? -1 : t.pass["1"];
      if (sort === "c") return t.c == null ? -1 : t.c;
      if (sort === "n") return t.n == null ? -1 : t.n;
      if (sort === "failed") return t.cells.filter(function (c) { return matches(finalVerdict(c, q.round), FAILED); }).length;
      return t.id;
    }
    shown.sort(function (a, b) { var x = key(a), y = key(b); var r = x < y ? -1 : x > y ? 1 : 0; return desc ? -r : r; });
    function th(k, label, cls) {
      var nq = Object.assign({}, q, { sort: k, desc: sort === k && !desc ? "1" : "" });
      return '<th class="sortable ' + (cls || "") + '" data-sort="' + k + '"><a href="' + href(["tasks"], nq) + '">' + label +
        (sort === k ? (desc ? " ▼" : " ▲") : "") + "</a></th>";
    }
    h += '<table id="tasks"><tr>' + th("id", "task") + th("difficulty", "difficulty") + th("categories", "categories") +
      th("pass1", "pass@1", "num") + th("c", "solved", "num") + th("n", "n", "num") + th("failed", "failed", "num") + "<th>samples</th></tr>";
    var body = [];
    shown.forEach(function (t) {
      var cells = t.cells.map(function (c) {
        var v = finalVerdict(c, q.round), on = matches(v, q.verdict);
        if (v === undefined) return "";
        var rq = q.round ? { round: q.round } : {};
        return '<a class="cell ' + vcls(v) + (on ? "" : " dim") + '" data-verdict="' + esc(v || "") + '" title="sample ' + c[0] + ": " +
          esc(v || "not judged") + (c.length > 2 ? " (" + (c.length - 1) + " rounds)" : "") + '" href="' +
          href(["sample", String(run.i), t.id, String(c[0])], rq) + '">' + esc(v || "·") + "</a>";
      }).join("");
      var nf = t.cells.filter(function (c) { return matches(finalVerdict(c, q.round), FAILED); }).length;
      body.push('<tr data-task="' + esc(t.id) + '"><td><a href="' + href(["sample", String(run.i), t.id, String((t.cells[0] || [0])[0])]) + '">' + esc(t.id) +
        "</a></td><td>" + esc(t.difficulty || "") + "</td><td>" + esc((t.categories || []).join(", ")) + '</td><td class="num">' +
        f3(t.pass["1"]) + '</td><td class="num">' + (t.c == null ? "—" : t.c) + '</td><td class="num">' + (t.n == null ? "—" : t.n) +
        '</td><td class="num">' + nf + '</td><td><div class="cells">' + cells + "</div></td></tr>");
    });
    h += body.join("") + "</table>";
    main().innerHTML = h;
    document.getElementById("count").textContent = shown.length + " of " + rows.length + " tasks";
    function bind(id, name) {
      var el = document.getElementById(id);
      if (!el) return;
      el.onchange = function () { var nq = Object.assign({}, q); nq[name] = el.value; location.hash = href(["tasks"], nq); };
    }
    bind("f-verdict", "verdict"); bind("f-difficulty", "difficulty"); bind("f-category", "category"); bind("f-round", "round");
    bind("f-text", "text"); bind("f-run", "run");
  }

  // -- sample page -----------------------------------------------------------------------------------
  function sampleFile(ri, task, n) {
    var rows = index.tasks[ri] || [], t = rows.filter(function (x) { return x.id === task; })[0];
    var f = t ? t.f : task;
    return { key: "r" + ri + "/" + task + "/" + n, src: "data/r" + ri + "/s/" + encodeURIComponent(f) + "/" + n + ".js" };
  }

  function codeBlock(code) {
    return '<pre class="code" id="code">' + String(code).split("\n").map(function (l) { return '<span class="ln">' + esc(l) + "</span>"; }).join("") + "</pre>";
  }

  function reasoningBlock(rd) {
    var text = rd.reasoning || "";
    var est = Math.round(text.length / 4);
    var h = '<details class="reasoning" id="reasoning"><summary>Reasoning (' + text.length + " chars, ≈" + est + " tokens est." +
      (rd.reasoning_tokens != null ? ", " + rd.reasoning_tokens + " reported" : "") + ")</summary>";
    var segs = rd.behaviors;
    if (segs && segs.length) {
      var groups = {};
      segs.forEach(function (s) { groups[s.group || "unparsed"] = 1; });
      h += '<div class="legend">' + Object.keys(groups).map(function (g) { return '<span class="g-' + esc(g) + '">' + esc(g) + "</span>"; }).join("") + "</div><pre>";
      var pos = 0;
      segs.forEach(function (s) {
        if (s.start > pos) h += esc(text.slice(pos, s.start));
        h += '<span class="seg g-' + esc(s.group || "unparsed") + '" title="' + esc((s.label || "unparsed") + (s.group ? " (" + s.group + ")" : "") +
          ", ≈" + s.tokens + " tokens") + '" data-label="' + esc(s.label || "") + '">' + esc(text.slice(s.start, s.end)) + "</span>";
        pos = Math.max(pos, s.end);
      });
      h += esc(text.slice(pos)) + "</pre>";
    } else {
      h += "<pre>" + (text ? esc(text) : '<span class="muted">(no reasoning)</span>') + "</pre>";
    }
    return h + "</details>";
  }

  function casesTable(cases, prefix) {
    if (!cases || !cases.length) return '<p class="muted">no cases ran</p>';
    var h = '<table class="cases" id="' + prefix + 'cases"><tr><th>case</th><th>verdict</th><th class="num">CPU ms</th><th class="num">wall ms</th>' +
      '<th class="num">peak KB</th><th class="num">queries / budget</th><th>solver exit</th><th>judge exit</th><th>message</th></tr>';
    cases.forEach(function (c) {
      h += '<tr><td><a href="javascript:void(0)" data-case="' + esc(c.case) + '" class="case-link">' + esc(c.case) + "</a></td><td>" + badge(c.verdict) +
        '</td><td class="num">' + num(c.cpu_ms) + '</td><td class="num">' + num(c.wall_ms) + '</td><td class="num">' + num(c.peak_kb) +
        '</td><td class="num">' + (c.queries == null ? "—" : c.queries + " / " + (c.query_limit == null ? "?" : c.query_limit)) +
        "</td><td>" + esc(c.solver_exit) + "</td><td>" + esc(c.interactor_exit) + "</td><td>" + esc(String(c.message || "").slice(0, 300)) + "</td></tr>";
    });
    return h + "</table>";
  }

  function transcriptBlock(c, open) {
    var h = '<details class="transcript" data-case="' + esc(c.case) + '"' + (open ? " open" : "") + "><summary>case " + esc(c.case) + " " + badge(c.verdict) +
      (c.transcript ? " — " + c.transcript.length + " turns" : " — pipe tails") + "</summary>";
    if (c.transcript) {
      c.transcript.forEach(function (t, i) {
        if (t.who === "cut") {
          h += '<div class="turn cut">… ' + esc(t.n == null ? "some" : t.n) + " bytes left out …</div>";
          return;
        }
        var who = /solver|program|contestant/.test(t.who) ? "solver" : "judge";
        h += '<div class="turn ' + who + '" data-turn="' + i + '"><span class="who">' + (who === "solver" ? "solver →" : "← judge") +
          '</span><span class="muted">' + (t.t_ms == null ? "" : num(t.t_ms, 1) + " ms") + "</span><pre>" + esc(t.text) + "</pre></div>";
      });
    } else {
      var tl = c.tails || {};
      h += '<p class="muted">No turn-by-turn transcript in this run: the last bytes of each pipe (their order across pipes is not recorded).</p>' +
        '<div class="tails"><div><b>solver → judge</b> (tail)<pre class="tail-s2j">' + esc(tl.solver_to_judge || "(empty)") + "</pre></div>" +
        '<div><b>judge → solver</b> (tail)<pre class="tail-j2s">' + esc(tl.judge_to_solver || "(empty)") + "</pre></div></div>";
    }
    var err = (c.tails || {}).stderr;
    if (err) h += "<b>solver stderr</b> (tail)<pre>" + esc(err) + "</pre>";
    return h + "</details>";
  }

  function roundHtml(doc, rd, ri, compact) {
    var h = "";
    h += '<p id="verdict">' + badge(rd.verdict) + (rd.score != null ? " score " + rd.score : "") + " " + esc(rd.message || "") + "</p>";
    var info = ["model: " + (rd.model || ""), "finish: " + (rd.finish_reason || ""), "prompt tokens: " + (rd.prompt_tokens == null ? "—" : rd.prompt_tokens),
      "completion tokens: " + (rd.completion_tokens == null ? "—" : rd.completion_tokens)];
    if (rd.source) info.push("replayed: " + rd.source);
    if (rd.error) info.push("generation failed: " + rd.error);
    h += '<p class="muted">' + esc(info.join("   ")) + "</p>";
    (rd.warnings || []).forEach(function (w) { h += '<div class="warn">' + esc(w) + "</div>"; });
    if (!compact) {
      h += '<details id="prompt"><summary>Prompt (' + rd.prompt.length + " messages)</summary>" + rd.prompt.map(function (m) {
        return '<div class="msg"><div class="role">' + esc(m.role) + "</div><pre>" + esc(m.content) + "</pre></div>";
      }).join("") + "</details>";
      h += reasoningBlock(rd);
      h += '<details id="answer"><summary>Answer</summary><pre>' + esc(rd.answer || "") + "</pre></details>";
    }
    h += "<h2>Code</h2>" + (rd.code ? codeBlock(rd.code) : '<p class="muted">no code: ' + esc(rd.extract_error || "no code block") + "</p>");
    var cm = rd.compile || {};
    if (cm.ms != null || cm.message) {
      h += "<h2>Compile</h2><p>" + (cm.ok ? "ok" : "failed") + " in " + num(cm.ms) + " ms" + (cm.cached ? " (cached)" : "") + "</p>" +
        (cm.message ? '<pre id="compile">' + esc(cm.message) + "</pre>" : "");
    }
    h += "<h2>Cases (" + rd.cases.length + ")</h2>" + casesTable(rd.cases, compact ? "c" + ri + "-" : "");
    if (!compact && rd.cases.length) {
      var firstBad = -1;
      rd.cases.forEach(function (c, i) { if (firstBad < 0 && c.verdict !== "OK") firstBad = i; });
      h += '<h2>Transcripts</h2><div id="transcripts">' + rd.cases.map(function (c, i) {
        return transcriptBlock(c, i === (firstBad >= 0 ? firstBad : rd.cases.length - 1));
      }).join("") + "</div>";
    }
    return h;
  }

  function pageSample(ri, task, n, q) {
    nav("tasks");
    var f = sampleFile(ri, task, n);
    main().innerHTML = '<p class="muted">Loading ' + esc(f.src) + "…</p>";
    load(f.key, f.src).then(function (doc) {
      var rounds = doc.rounds, want = q.round ? parseInt(q.round, 10) : rounds[rounds.length - 1].round;
      var rd = rounds.filter(function (x) { return x.round === want; })[0] || rounds[rounds.length - 1];
      var run = index.runs[ri];
      var h = "<h1>" + esc(task) + " · sample " + n + ' <span class="muted">(' + esc(run.label) + ")</span></h1>";
      h += '<p><a href="' + href(["tasks"], { run: ri }) + '">← tasks</a>' + (index.runs.length > 1 ? '  ·  <a href="' + href(["side", task, String(n)]) + '">this sample in every run</a>' : "") + "</p>";
      if (rounds.length > 1) {
        h += '<p class="rounds">rounds: ' + rounds.map(function (x) {
          return '<a class="' + (x.round === rd.round ? "active" : "") + '" href="' + href(["sample", String(ri), task, String(n)], { round: x.round }) + '">' +
            x.round + " " + badge(x.verdict) + "</a>";
        }).join("") + '</p><p class="muted">Round ' + rd.round + "'s prompt holds the conversation so far: every earlier answer and the judge's feedback on it.</p>";
      }
      h += roundHtml(doc, rd, ri, false);
      main().innerHTML = h;
      Array.prototype.forEach.call(document.querySelectorAll("a.case-link"), function (a) {
        a.onclick = function () {
          var d = document.querySelector('details.transcript[data-case="' + CSS.escape(a.dataset.case) + '"]');
          if (d) { d.open = true; d.scrollIntoView(); }
        };
      });
    }, function (e) { main().innerHTML = '<p class="warn">' + esc(e.message) + "</p>"; });
  }

  // -- compare / side by side -------------------------------------------------------------------------
  function legend() {
    return '<table class="kv" id="legend">' + index.runs.map(function (r) {
      return "<tr><td>#" + (r.i + 1) + '</td><td><a href="#/run/' + r.i + '">' + esc(r.label) + "</a></td></tr>";
    }).join("") + "</table>";
  }

  function pageCompare(q) {
    nav("compare");
    var cmp = index.compare, runs = index.runs;
    var h = "<h1>Compare " + runs.length + " runs</h1>";
    if (!(cmp && cmp.rows && cmp.rows.length)) h += legend();
    if (cmp && cmp.rows && cmp.rows.length) {
      var labels = cmp.labels, base = labels[0];
      h += legend() + '<h2>pass@1 on the common tasks (differences to #1, paired bootstrap CI over tasks)</h2><table id="compare-groups"><tr><th>group</th><th class="num">tasks</th>' +
        labels.map(function (l, i) { return '<th class="num" title="' + esc(l) + '">#' + (i + 1) + "</th>"; }).join("") +
        labels.slice(1).map(function (l, i) { return '<th class="num" title="' + esc(l) + '">Δ #' + (i + 2) + "</th>"; }).join("") + "</tr>";
      cmp.rows.forEach(function (row) {
        h += "<tr><td>" + esc(row.group === "overall" ? "Overall" : row.group + ": " + row.name) + '</td><td class="num">' + row.n_tasks + "</td>" +
          labels.map(function (l) { return '<td class="num">' + f3(row[l]) + "</td>"; }).join("") +
          labels.slice(1).map(function (l) {
            var k = l + " - " + base, lo = row[k + " ci_low"], hi = row[k + " ci_high"];
            return '<td class="num">' + (row[k] == null ? "—" : (row[k] >= 0 ? "+" : "") + row[k].toFixed(3)) +
              (lo == null ? "" : ' <span class="muted">[' + lo.toFixed(3) + ", " + hi.toFixed(3) + "]</span>") + "</td>";
          }).join("") + "</tr>";
      });
      h += "</table>";
    } else if (cmp && cmp.error) h += '<div class="warn">' + esc(cmp.error) + "</div>";
    var byTask = {};
    runs.forEach(function (r) { (index.tasks[r.i] || []).forEach(function (t) { (byTask[t.id] = byTask[t.id] || {})[r.i] = t; }); });
    var ids = Object.keys(byTask).sort();
    if (q.only === "differ") ids = ids.filter(function (id) {
      var s = runs.map(function (r) { var t = byTask[id][r.i]; return t ? (t.c > 0) : null; });
      return s.some(function (x) { return x !== s[0]; });
    });
    h += '<h2>Per task: which runs solved it</h2><div class="filters"><label><input type="checkbox" id="f-differ"' + (q.only === "differ" ? " checked" : "") +
      "> only tasks where the runs differ</label></div>";
    h += '<table id="compare-tasks"><tr><th>task</th>' + runs.map(function (r) { return '<th title="' + esc(r.label) + '">#' + (r.i + 1) + "</th>"; }).join("") + "</tr>";
    ids.forEach(function (id) {
      h += '<tr data-task="' + esc(id) + '"><td>' + esc(id) + "</td>" + runs.map(function (r) {
        var t = byTask[id][r.i];
        if (!t) return '<td class="muted">—</td>';
        return '<td><span class="' + (t.c > 0 ? "solved" : "unsolved") + '">' + (t.c > 0 ? "✔ solved" : "✘ unsolved") + "</span> " +
          '<span class="muted">' + (t.c == null ? "" : t.c + "/" + t.n) + '</span><div class="cells">' + t.cells.map(function (c) {
            var v = c[c.length - 1];
            return '<a class="cell ' + vcls(v) + '" title="sample ' + c[0] + '" href="' + href(["side", id, String(c[0])]) + '">' + esc(v || "·") + "</a>";
          }).join("") + "</div></td>";
      }).join("") + "</tr>";
    });
    main().innerHTML = h + "</table>";
    var cb = document.getElementById("f-differ");
    cb.onchange = function () { location.hash = href(["compare"], cb.checked ? { only: "differ" } : {}); };
  }

  function pageSide(task, n) {
    nav("compare");
    var runs = index.runs;
    main().innerHTML = '<p class="muted">Loading…</p>';
    Promise.all(runs.map(function (r) {
      var has = (index.tasks[r.i] || []).some(function (t) { return t.id === task && t.cells.some(function (c) { return c[0] === n; }); });
      if (!has) return Promise.resolve(null);
      var f = sampleFile(r.i, task, n);
      return load(f.key, f.src).catch(function () { return null; });
    })).then(function (docs) {
      var h = "<h1>" + esc(task) + " · sample " + n + " in every run</h1>" + '<div class="side" id="side" style="grid-template-columns: repeat(' + runs.length + ', minmax(0, 1fr))">';
      docs.forEach(function (doc, i) {
        h += '<div class="side-run"><h2><a href="' + href(["sample", String(i), task, String(n)]) + '">#' + (i + 1) + " " + esc(runs[i].label) + "</a></h2>";
        if (!doc) h += '<p class="muted">no such sample in this run</p>';
        else { var rd = doc.rounds[doc.rounds.length - 1]; h += roundHtml(doc, rd, i, true); }
        h += "</div>";
      });
      main().innerHTML = h + "</div>";
    });
  }

  // -- sweep ---------------------------------------------------------------------------------------
  function pageSweep() {
    nav("sweep");
    var sw = index.sweep, h = "<h1>Sweep</h1>";
    if (!sw) h += '<p class="muted">A sweep needs two or more runs.</p>';
    else if (sw.error) h += '<div class="warn">' + esc(sw.error) + "</div>";
    else {
      h += '<p>swept setting: <b id="sweep-key">' + esc(sw.key || "(none: runs by folder)") + "</b></p>";
      if (sw.note) h += '<div class="warn" id="sweep-note">' + esc(sw.note) + "</div>";
      var rows = sw.rows || [], cols = rows.length ? Object.keys(rows[0]).filter(function (c) { return !/_ci_(low|high)$/.test(c) && c !== "run_dir"; }) : [];
      h += '<table id="sweep-table"><tr>' + cols.map(function (c) { return "<th>" + esc(c) + "</th>"; }).join("") + "</tr>";
      rows.forEach(function (row) {
        h += "<tr>" + cols.map(function (c) {
          var v = row[c], lo = row[c + "_ci_low"], hi = row[c + "_ci_high"];
          if (typeof v === "number" && /^pass@/.test(c)) return '<td class="num">' + f3(v) + (lo != null ? ' <span class="muted">[' + f3(lo) + ", " + f3(hi) + "]</span>" : "") + "</td>";
          return "<td>" + esc(typeof v === "number" ? Math.round(v * 1000) / 1000 : v) + "</td>";
        }).join("") + "</tr>";
      });
      h += '</table><img class="plot" id="sweep-plot" alt="sweep" src="' + esc(sw.png) + '">';
    }
    main().innerHTML = h;
  }

  return { put: put, load: load, store: store };
})();
