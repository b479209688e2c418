/*
 * SuperBiz 诊断助手: the chat page. No framework, no build step, no external resources.
 *
 * POST /api/chat answers with Server-Sent Events; the page reads them with fetch + a stream reader (EventSource
 * cannot POST) through the small SseParser below. Everything the server sends is untrusted data: it is only ever
 * placed into the page with textContent / setAttribute, never parsed as HTML.
 */
"use strict";

(function () {
  // ------------------------------------------------------------------------------------------------------------
  // SSE parser (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation)
  // ------------------------------------------------------------------------------------------------------------

  /**
   * Incremental event-stream parser. feed() takes decoded text in arbitrary pieces and returns the events
   * completed by it: {event, data, id}. Lines end in CRLF, LF or CR (a CR at the end of a piece is held back
   * until the next piece shows whether an LF follows); lines starting with ":" are comments (keep-alives);
   * several data lines join with "\n"; "field:value" and "field: value" are the same; an event without data
   * lines is dropped; a leading BOM is ignored. end() flushes at end of stream: per the specification, an
   * event not terminated by a blank line is discarded.
   */
  class SseParser {
    constructor() {
      this.buffer = "";
      this.started = false;
      this.eventType = "";
      this.dataLines = [];
      this.lastEventId = "";
    }

    feed(text) {
      if (!this.started && text.length > 0) {
        this.started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      this.buffer += text;
      return this._drain(false);
    }

    end() {
      const events = this._drain(true);
      this.buffer = "";
      this.eventType = "";
      this.dataLines = [];
      return events;
    }

    _drain(final) {
      const events = [];
      const buffer = this.buffer;
      const terminator = /\r\n|\r|\n/g;
      let start = 0;
      let match;
      while ((match = terminator.exec(buffer)) !== null) {
        if (!final && match[0] === "\r" && match.index === buffer.length - 1) break; // maybe half of a CRLF
        this._line(buffer.slice(start, match.index), events);
        start = match.index + match[0].length;
      }
      this.buffer = buffer.slice(start);
      return events;
    }

    _line(line, events) {
      if (line === "") {
        if (this.dataLines.length > 0) {
          events.push({ event: this.eventType || "message", data: this.dataLines.join("\n"), id: this.lastEventId });
        }
        this.eventType = "";
        this.dataLines = [];
        return;
      }
      if (line.charCodeAt(0) === 0x3a /* ":" */) return; // comment, e.g. a keep-alive ping
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.charCodeAt(0) === 0x20) value = value.slice(1);
      if (field === "event") this.eventType = value;
      else if (field === "data") this.dataLines.push(value);
      else if (field === "id" && value.indexOf("\u0000") === -1) this.lastEventId = value;
      // "retry" and unknown fields are ignored.
    }
  }

  /** Read an SSE response body to its end, calling onEvent({event, data, id}) for each event. */
  async function readEventStream(body, onEvent) {
    const reader = body.getReader();
    const decoder = new TextDecoder("utf-8");
    const parser = new SseParser();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.feed(decoder.decode(value, { stream: true }))) onEvent(event);
      }
      for (const event of parser.feed(decoder.decode())) onEvent(event);
      for (const event of parser.end()) onEvent(event);
    } finally {
      reader.releaseLock();
    }
  }

  window.SuperbizSse = { SseParser, readEventStream };

  // ------------------------------------------------------------------------------------------------------------
  // DOM helpers: text only
  // ------------------------------------------------------------------------------------------------------------

  /** el("div", {class: "x", text: "y", title: "z", data: {k: v}}, child...) — text via textContent only. */
  function el(tag, options, ...children) {
    const node = document.createElement(tag);
    const opts = options || {};
    for (const [key, value] of Object.entries(opts)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else if (key === "data") {
        for (const [name, v] of Object.entries(value)) if (v !== undefined && v !== null) node.dataset[name] = String(v);
      } else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const asText = (value) => (value === null || value === undefined ? "" : String(value));
  const asArray = (value) => (Array.isArray(value) ? value : []);
  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  /** A safe fragment for an element id built from server data. */
  const idPart = (value) => asText(value).replace(/[^A-Za-z0-9_-]/g, "_");
  /** Unicode code points, as the server counts characters. */
  const charCount = (text) => Array.from(text).length;

  function cellText(value) {
    if (value === null || value === undefined) return null;
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Labels
  // ------------------------------------------------------------------------------------------------------------

  const INTENTS = { DIAGNOSIS: "故障诊断", KNOWLEDGE_QUERY: "知识问答", SYSTEM_CHAT: "一般对话" };
  const TOOLS = { lookup_knowledge: "知识库检索", query_logs: "日志查询", query_mysql: "订单库只读查询" };
  const EVIDENCE = {
    EVIDENCE_FOUND: ["找到证据", "ok"],
    NO_EVIDENCE: ["无证据", "muted"],
    ERROR: ["查询出错", "error"],
  };
  const STAGES = {
    QUEUED: "排队等待中",
    ROUTING: "正在识别问题类型",
    ROUTED: "已识别问题类型",
    PLANNING: "已制定排查计划",
    KNOWLEDGE_SEARCHING: "正在检索知识库",
    ANSWERING: "正在生成回答",
    EVIDENCE_VALIDATING: "正在校验证据引用",
    EVIDENCE_REPAIRING: "引用未通过校验，正在修正",
    SEMANTIC_VALIDATING: "正在进行语义安全校验",
  };
  const SOURCE_TYPES = { KNOWLEDGE: "知识库", LOG: "日志", MYSQL: "MySQL", METRIC: "指标" };
  const FALLBACK_TYPES = {
    EVIDENCE_VALIDATION_FAILED: "证据校验未通过",
    SEMANTIC_UNSUPPORTED: "结论缺少证据支持",
    SEMANTIC_UNAVAILABLE: "语义校验暂不可用",
  };
  const OUTCOMES = { SUCCESS: "已完成", FALLBACK: "未给出结论", FAILED: "失败" };
  const SECTION_TITLES = ["结论", "分析支撑", "行动计划", "长期建议", "诊断范围与限制", "引用"];

  // ------------------------------------------------------------------------------------------------------------
  // One question and its answer
  // ------------------------------------------------------------------------------------------------------------

  class Turn {
    constructor(index, query) {
      this.index = index;
      this.finished = false;
      this.started = performance.now();
      this.pendingTools = []; // status lines of tools still running, oldest first

      this.question = el("article", { class: "turn turn-user" }, el("div", { class: "bubble bubble-user", text: query }));

      this.spinner = el("span", { class: "spinner", "aria-hidden": "true" });
      this.phase = el("span", { class: "process-phase", text: "已发送，等待响应…" });
      this.statusList = el("ol", { class: "status-list" });
      this.process = el(
        "details",
        { class: "process", open: true },
        el("summary", {}, this.spinner, el("span", { class: "process-title", text: "处理过程" }), this.phase),
        this.statusList,
      );
      this.body = el("div", { class: "answer-body" });
      this.meta = el("footer", { class: "turn-meta" });
      this.answer = el(
        "article",
        { class: "turn turn-assistant", data: { state: "running", turn: index } },
        el("div", { class: "bubble bubble-assistant" }, this.process, this.body, this.meta),
      );
    }

    get nodes() {
      return [this.question, this.answer];
    }

    // --- events ---------------------------------------------------------------------------------------------

    metadata(data) {
      this.sessionId = asText(data.session_id);
      this.runId = asText(data.run_id);
      this.model = asText(data.model);
      this.answer.dataset.sessionId = this.sessionId;
      this.answer.dataset.runId = this.runId;
      this.phase.textContent = "运行中";
      this._renderMeta();
    }

    status(data) {
      const code = asText(data.code);
      const message = asText(data.message);
      if (code === "TOOL_RUNNING") {
        this._settleStages();
        const tool = asText(data.tool);
        const state = el("span", { class: "tool-state", text: "查询中" });
        const line = this._line("TOOL", [
          el("span", { class: "tool-name", text: TOOLS[tool] || tool || "工具" }),
          tool && TOOLS[tool] ? el("code", { class: "tool-id", text: tool }) : null,
          state,
        ]);
        line.classList.add("status-tool");
        line.dataset.tool = tool;
        line.stateLabel = state;
        this.pendingTools.push(line);
        this.phase.textContent = "正在查询证据";
        return;
      }
      if (code === "TOOL_FINISHED") {
        const tool = asText(data.tool);
        const evidence = asText(data.evidence_status);
        let line = this.pendingTools.find((candidate) => candidate.dataset.tool === tool);
        if (line) this.pendingTools.splice(this.pendingTools.indexOf(line), 1);
        else {
          line = this._line("TOOL", [el("span", { class: "tool-name", text: TOOLS[tool] || tool || "工具" })]);
          line.classList.add("status-tool");
          line.dataset.tool = tool;
          line.stateLabel = el("span", { class: "tool-state" });
          line.querySelector(".status-head").append(line.stateLabel);
        }
        const [label, tone] = EVIDENCE[evidence] || [evidence || "已完成", "muted"];
        line.dataset.evidence = evidence;
        line.dataset.state = "done";
        line.stateLabel.textContent = label;
        line.stateLabel.className = `tool-state badge badge-${tone}`;
        return;
      }

      this._settleStages();
      let text = message || STAGES[code] || code;
      if (code === "ROUTED" && data.intent) text = `${text}：${INTENTS[data.intent] || data.intent}`;
      const extra = [];
      if (code === "PLANNING") {
        const steps = asArray(data.steps);
        if (steps.length) extra.push(el("ol", { class: "plan-steps" }, steps.map((step) => el("li", { text: step }))));
      }
      const line = this._line(code, [el("span", { class: "status-text", text })], extra);
      // Plans and routing results are facts, not ongoing work.
      if (code === "PLANNING" || code === "ROUTED") line.dataset.state = "done";
      this.phase.textContent = STAGES[code] && !/^已/.test(STAGES[code]) ? STAGES[code] : "运行中";
    }

    content(data) {
      this._settleStages();
      const type = asText(data.content_type);
      const payload = isObject(data.payload) ? data.payload : {};
      this.answer.dataset.contentType = type;
      if (type === "DIAGNOSIS_REPORT") this.body.append(renderReport(payload, this.index));
      else if (type === "KNOWLEDGE_ANSWER") this.body.append(renderKnowledge(payload));
      else if (type === "SYSTEM_ANSWER") this.body.append(el("div", { class: "plain-answer", text: asText(payload.answer) }));
      else if (type === "FALLBACK") this.body.append(renderFallback(payload));
      else this.body.append(el("pre", { class: "raw", text: JSON.stringify(data, null, 2) }));
    }

    failure(data) {
      this._settleStages();
      this.body.append(
        el(
          "section",
          { class: "panel panel-error", role: "alert", data: { code: asText(data.code) } },
          el("h3", { text: "运行失败" }),
          el("p", { class: "panel-message", text: asText(data.message) || "服务未能完成本次运行" }),
          data.code ? el("p", { class: "panel-code" }, "错误码 ", el("code", { text: asText(data.code) })) : null,
        ),
      );
    }

    done(data) {
      const outcome = asText(data.outcome);
      this.answer.dataset.outcome = outcome;
      this._finish("done", OUTCOMES[outcome] || outcome || "已结束");
    }

    // --- endings without a done event ------------------------------------------------------------------------

    httpError(status, code, message) {
      this.body.append(
        el(
          "div",
          { class: "error-line", role: "alert", data: { status, code } },
          el("strong", { text: `请求失败（HTTP ${status}${code ? ` · ${code}` : ""}）` }),
          el("span", { text: `：${message}` }),
        ),
      );
      this._finish("error", "请求被拒绝");
    }

    interrupted(message) {
      this.body.append(el("div", { class: "error-line", role: "alert" }, el("strong", { text: "连接中断" }), el("span", { text: `：${message}` })));
      this._finish("error", "连接中断");
    }

    stopped() {
      this.body.append(el("div", { class: "note-line", text: "已停止：连接已关闭，服务端会取消本次运行。" }));
      this._finish("stopped", "已停止");
    }

    // --- internals ------------------------------------------------------------------------------------------

    _line(code, parts, extra) {
      const icon = el("span", { class: "status-icon", "aria-hidden": "true" });
      const line = el(
        "li",
        { class: "status-line", data: { code, state: "active" } },
        icon,
        el("div", { class: "status-main" }, el("div", { class: "status-head" }, parts), extra || []),
      );
      this.statusList.append(line);
      return line;
    }

    /** Stage lines are active until the next stage (tool lines until their own TOOL_FINISHED). */
    _settleStages() {
      for (const line of this.statusList.querySelectorAll('.status-line[data-state="active"]:not(.status-tool)')) {
        line.dataset.state = "done";
      }
    }

    _finish(state, phaseText) {
      if (this.finished) return;
      this.finished = true;
      this._settleStages();
      for (const line of this.pendingTools) {
        line.dataset.state = "stopped";
        line.stateLabel.textContent = "未完成";
        line.stateLabel.className = "tool-state badge badge-muted";
      }
      this.pendingTools = [];
      this.answer.dataset.state = state;
      this.phase.textContent = phaseText;
      this.elapsed = (performance.now() - this.started) / 1000;
      if (!this.statusList.children.length) this.process.remove();
      this._renderMeta();
    }

    _renderMeta() {
      const parts = [];
      const outcome = this.answer.dataset.outcome;
      if (outcome) {
        parts.push(el("span", { class: `meta-item outcome outcome-${idPart(outcome).toLowerCase()}`, text: OUTCOMES[outcome] || outcome }));
      }
      if (this.runId) parts.push(el("span", { class: "meta-item" }, "运行 ", el("code", { class: "run-id", text: this.runId })));
      if (this.sessionId) {
        parts.push(el("span", { class: "meta-item" }, "会话 ", el("code", { class: "session-id", text: this.sessionId })));
      }
      if (this.model) parts.push(el("span", { class: "meta-item", text: `模型 ${this.model}` }));
      if (this.elapsed !== undefined) parts.push(el("span", { class: "meta-item", text: `用时 ${this.elapsed.toFixed(1)} s` }));
      this.meta.replaceChildren(...parts);
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Content renderers
  // ------------------------------------------------------------------------------------------------------------

  function section(title, ...children) {
    return el("section", { class: "report-section" }, el("h3", { class: "section-title", text: title }), children);
  }

  function emptyNote(text) {
    return el("p", { class: "empty-note", text });
  }

  /** Chips linking to elements of this answer (analysis items or references); a missing target is marked. */
  function chips(ids, prefix, turnIndex, knownIds, kind) {
    const list = asArray(ids);
    if (!list.length) return null;
    return el(
      "span",
      { class: "chips" },
      list.map((raw) => {
        const id = asText(raw);
        if (!knownIds.has(id)) return el("span", { class: `chip chip-${kind} chip-missing`, title: "未找到该条目", text: id });
        const target = `${prefix}-${turnIndex}-${idPart(id)}`;
        return el("a", { class: `chip chip-${kind}`, href: `#${target}`, data: { target }, text: id });
      }),
    );
  }

  function basis(ids, turnIndex, analysisIds) {
    const links = chips(ids, "an", turnIndex, analysisIds, "analysis");
    return links ? el("div", { class: "basis" }, el("span", { class: "basis-label", text: "依据" }), links) : null;
  }

  function renderReport(payload, turnIndex) {
    const analysis = asArray(payload.analysis).filter(isObject);
    const references = asArray(payload.references).filter(isObject);
    const analysisIds = new Set(analysis.map((item) => asText(item.analysis_id)));
    const refIds = new Set(references.map((item) => asText(item.ref)));

    const conclusion = isObject(payload.conclusion) ? payload.conclusion : null;
    const conclusionBody = conclusion
      ? el("div", { class: "conclusion" }, el("p", { class: "conclusion-text", text: asText(conclusion.text) }), basis(conclusion.based_on_analysis_ids, turnIndex, analysisIds))
      : el("div", { class: "conclusion conclusion-none" }, el("p", { text: "未给出结论：现有证据不足以支持一个可靠的结论，请参考下方的分析与已核实范围。" }));

    const analysisBody = analysis.length
      ? el(
          "ol",
          { class: "analysis-list" },
          analysis.map((item) => {
            const negative = item.kind === "NEGATIVE_OBSERVATION";
            return el(
              "li",
              { class: `analysis-item${negative ? " analysis-negative" : ""}`, id: `an-${turnIndex}-${idPart(item.analysis_id)}`, data: { kind: asText(item.kind) } },
              el(
                "div",
                { class: "item-head" },
                el("span", { class: "item-id", text: asText(item.analysis_id) }),
                negative ? el("span", { class: "badge badge-negative", title: "检查过但没有发现异常的观察", text: "负向观察" }) : null,
                chips(item.references, "ref", turnIndex, refIds, "ref"),
              ),
              el("p", { class: "item-text", text: asText(item.text) }),
            );
          }),
        )
      : emptyNote("无");

    const actions = asArray(payload.action_plan).filter(isObject);
    const actionBody = actions.length
      ? el(
          "ol",
          { class: "action-list" },
          actions.map((item) => {
            const confirm = item.requires_human_confirmation === true;
            return el(
              "li",
              { class: `action-item${confirm ? " action-confirm" : ""}`, data: { requiresConfirmation: confirm } },
              el(
                "div",
                { class: "item-head" },
                confirm ? el("span", { class: "badge badge-confirm", title: "涉及变更，须由值班负责人人工确认后执行", text: "需人工确认" }) : null,
                basis(item.based_on_analysis_ids, turnIndex, analysisIds),
              ),
              el("p", { class: "item-text", text: asText(item.action) }),
            );
          }),
        )
      : emptyNote("无");

    const recommendations = asArray(payload.recommendations).filter(isObject);
    const recommendationBody = recommendations.length
      ? el(
          "ul",
          { class: "recommendation-list" },
          recommendations.map((item) => el("li", { class: "recommendation-item" }, el("p", { class: "item-text", text: asText(item.text) }), basis(item.based_on_analysis_ids, turnIndex, analysisIds))),
        )
      : emptyNote("无");

    const limitations = isObject(payload.limitations) ? payload.limitations : {};
    const missing = asArray(limitations.missing_info);
    const limitationBody = el(
      "dl",
      { class: "limitations" },
      el("dt", { text: "诊断范围" }),
      el("dd", { text: asText(limitations.scope) || "未说明" }),
      el("dt", { text: "缺失信息" }),
      el("dd", {}, missing.length ? el("ul", {}, missing.map((text) => el("li", { text }))) : "无"),
    );

    const referenceBody = references.length
      ? el("ol", { class: "reference-list" }, references.map((ref) => renderReference(ref, turnIndex)))
      : emptyNote("无");

    const bodies = [conclusionBody, analysisBody, actionBody, recommendationBody, limitationBody, referenceBody];
    return el("div", { class: "report" }, SECTION_TITLES.map((title, i) => section(title, bodies[i])));
  }

  function sourceBadge(type) {
    const code = asText(type);
    return el("span", { class: `badge badge-source source-${idPart(code).toLowerCase()}`, title: code, text: SOURCE_TYPES[code] || code || "来源" });
  }

  /** Hide the children of `container` after the first `visible`; returns a button that shows them, or null. */
  function collapseExtra(container, visible) {
    const extra = Array.from(container.children).slice(visible);
    if (!extra.length) return null;
    for (const node of extra) node.hidden = true;
    const more = `显示其余 ${extra.length} 条`;
    const button = el("button", { class: "btn btn-ghost btn-small more-toggle", type: "button", "aria-expanded": "false", text: more });
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      for (const node of extra) node.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? "收起" : more;
    });
    return button;
  }

  function collapsible(container, visible) {
    const button = collapseExtra(container, visible);
    return button ? el("div", { class: "collapsible" }, container, button) : container;
  }

  function renderReference(ref, turnIndex) {
    const type = asText(ref.source_type);
    const evidence = asArray(ref.evidence);
    let evidenceBody;
    if (type === "LOG") evidenceBody = renderLogs(evidence);
    else if (type === "MYSQL") evidenceBody = el("div", { class: "mysql-results" }, evidence.map(renderMysql));
    else if (type === "METRIC") evidenceBody = renderMetrics(evidence);
    else if (type === "KNOWLEDGE") evidenceBody = collapsible(el("div", { class: "knowledge-excerpts" }, evidence.map(renderKnowledgeExcerpt)), 2);
    else evidenceBody = el("pre", { class: "raw", text: JSON.stringify(evidence, null, 2) });
    return el(
      "li",
      { class: "ref-card", id: `ref-${turnIndex}-${idPart(ref.ref)}`, data: { sourceType: type, ref: asText(ref.ref) } },
      el(
        "div",
        { class: "ref-head" },
        el("span", { class: "chip chip-ref chip-static", text: asText(ref.ref) }),
        sourceBadge(type),
        el("span", { class: "ref-source", text: asText(ref.source) }),
      ),
      ref.scope ? el("div", { class: "ref-scope" }, el("span", { class: "ref-scope-label", text: "范围" }), el("span", { class: type === "MYSQL" ? "mono" : null, text: asText(ref.scope) })) : null,
      evidenceBody,
    );
  }

  function renderLogs(evidence) {
    if (!evidence.length) return emptyNote("无日志证据");
    const lines = el(
      "div",
      { class: "log-lines" },
      evidence.map((item) => {
        if (!isObject(item)) return el("div", { class: "log-line", text: asText(item) });
        if (item.match_count === 0 && item.excerpt === undefined) {
          return el("div", { class: "log-line log-none", text: "未匹配到日志（match_count = 0）" });
        }
        const level = asText(item.level);
        let when = asText(item.timestamp);
        if (!when && (item.first_seen || item.last_seen)) {
          when = item.first_seen === item.last_seen ? asText(item.first_seen) : `${asText(item.first_seen)} → ${asText(item.last_seen)}`;
        }
        return el(
          "div",
          { class: `log-line level-${idPart(level).toLowerCase()}` },
          el(
            "div",
            { class: "log-meta" },
            when ? el("span", { class: "log-time", text: when }) : null,
            level ? el("span", { class: "log-level", text: level }) : null,
            item.service ? el("span", { class: "log-service", text: asText(item.service) }) : null,
            item.count !== undefined ? el("span", { class: "log-count", title: "相同日志的条数", text: `×${asText(item.count)}` }) : null,
          ),
          el("div", { class: "log-excerpt", text: asText(item.excerpt) }),
        );
      }),
    );
    return collapsible(lines, 6);
  }

  /** Metric series: labels, min / max / last / mean, the largest change and a sparkline of the sample. */
  function renderMetrics(evidence) {
    const series = evidence.filter((item) => isObject(item) && item.points !== undefined);
    if (!series.length) return emptyNote("该时间窗口内没有匹配的序列（series_count = 0）");
    const labelsOf = (item) => Object.entries(isObject(item.labels) ? item.labels : {}).map(([k, v]) => `${k}=${asText(v)}`).join(", ") || "（聚合）";
    const clock = (iso) => (/T(\d\d:\d\d:\d\d)/.exec(asText(iso)) || [null, asText(iso)])[1];
    const changeOf = (change) => (isObject(change) ? `${asText(change.from)} → ${asText(change.to)}（${clock(change.from_time)} → ${clock(change.to_time)} UTC）` : "");
    const columns = ["序列", "最小", "最大", "最后", "平均", "最大变化", "走势"];
    const body = el(
      "tbody",
      {},
      series.map((item) =>
        el(
          "tr",
          { class: "metric-series" },
          el("td", { text: labelsOf(item) }),
          ...["min", "max", "last", "mean"].map((key) => el("td", { class: "num", text: asText(item[key]) })),
          el("td", { text: changeOf(item.largest_change) }),
          el("td", {}, sparkline(asArray(item.sample))),
        ),
      ),
    );
    const table = el("table", { class: "data-table metric-table" }, el("thead", {}, el("tr", {}, columns.map((column) => el("th", { scope: "col", text: column })))), body);
    return el("div", { class: "metric-result" }, el("div", { class: "table-scroll" }, table), collapseExtra(body, 10));
  }

  /** An inline SVG line of a series' sample points (value over time), or nothing when fewer than two are numbers. */
  function sparkline(sample) {
    const points = sample.filter((p) => isObject(p) && Number.isFinite(p.value) && !Number.isNaN(Date.parse(p.time)));
    if (points.length < 2) return null;
    const [width, height, pad] = [120, 28, 2];
    const times = points.map((p) => Date.parse(p.time));
    const values = points.map((p) => p.value);
    const [t0, t1, v0, v1] = [Math.min(...times), Math.max(...times), Math.min(...values), Math.max(...values)];
    const x = (t) => pad + ((t - t0) / (t1 - t0 || 1)) * (width - 2 * pad);
    const y = (v) => height - pad - ((v - v0) / (v1 - v0 || 1)) * (height - 2 * pad);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "sparkline");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `${points.length} 个采样点，${v0} 至 ${v1}`);
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", points.map((p, i) => `${x(times[i]).toFixed(1)},${y(values[i]).toFixed(1)}`).join(" "));
    svg.append(line);
    return svg;
  }

  function renderMysql(item) {
    if (!isObject(item)) return el("pre", { class: "raw", text: JSON.stringify(item) });
    const rows = asArray(item.rows);
    let columns = asArray(item.columns).map(asText);
    if (!columns.length) {
      const seen = new Set();
      for (const row of rows) if (isObject(row)) for (const key of Object.keys(row)) seen.add(key);
      columns = [...seen];
    }
    const caption = el("div", { class: "table-caption", text: `${rows.length} 行` });
    if (!rows.length) return el("div", { class: "mysql-result" }, caption, emptyNote("查询结果为空（0 行）"));
    const body = el(
      "tbody",
      {},
      rows.map((row) =>
        el(
          "tr",
          {},
          columns.map((column) => {
            const value = isObject(row) ? cellText(row[column]) : null;
            return value === null ? el("td", { class: "null", text: "NULL" }) : el("td", { text: value });
          }),
        ),
      ),
    );
    const table = el("table", { class: "data-table" }, el("thead", {}, el("tr", {}, columns.map((column) => el("th", { scope: "col", text: column })))), body);
    return el("div", { class: "mysql-result" }, caption, el("div", { class: "table-scroll" }, table), collapseExtra(body, 20));
  }

  function renderKnowledgeExcerpt(item) {
    if (!isObject(item)) return el("blockquote", { class: "excerpt", text: asText(item) });
    return el(
      "div",
      { class: "knowledge-excerpt" },
      el("div", { class: "doc-head" }, el("span", { class: "doc-breadcrumb", text: asText(item.breadcrumb || item.title) }), item.document_id ? el("code", { class: "doc-id", text: asText(item.document_id) }) : null),
      el("blockquote", { class: "excerpt", text: asText(item.excerpt) }),
    );
  }

  function renderKnowledge(payload) {
    const references = asArray(payload.references).filter(isObject);
    const limitations = asArray(payload.limitations);
    return el(
      "div",
      { class: "knowledge-answer" },
      el("div", { class: "plain-answer", text: asText(payload.answer) }),
      references.length
        ? el(
            "section",
            { class: "report-section" },
            el("h3", { class: "section-title", text: "参考资料" }),
            el(
              "ol",
              { class: "reference-list" },
              references.map((ref) =>
                el(
                  "li",
                  { class: "ref-card", data: { sourceType: "KNOWLEDGE" } },
                  el("div", { class: "ref-head" }, sourceBadge("KNOWLEDGE"), el("span", { class: "ref-source", text: asText(ref.title || ref.source) })),
                  ref.source && ref.source !== ref.title ? el("div", { class: "ref-scope" }, el("span", { class: "ref-scope-label", text: "来源" }), el("span", { text: asText(ref.source) })) : null,
                  renderKnowledgeExcerpt(ref),
                ),
              ),
            ),
          )
        : null,
      limitations.length
        ? el("section", { class: "report-section" }, el("h3", { class: "section-title", text: "限制" }), el("ul", { class: "plain-list" }, limitations.map((text) => el("li", { text }))))
        : null,
    );
  }

  function renderFallback(payload) {
    const type = asText(payload.type);
    const sources = asArray(payload.verified_sources).filter(isObject);
    const limitations = asArray(payload.limitations);
    const nextSteps = asArray(payload.next_steps);
    return el(
      "section",
      { class: "panel panel-warning", role: "status", data: { fallbackType: type } },
      el("h3", {}, "未给出诊断结论", el("span", { class: "badge badge-warning", title: type, text: FALLBACK_TYPES[type] || type })),
      el("p", { class: "panel-message", text: asText(payload.message) }),
      el("p", { class: "panel-code" }, "类型 ", el("code", { text: type })),
      el("h4", { text: "已核实的数据源" }),
      sources.length
        ? el(
            "ul",
            { class: "source-list" },
            sources.map((source) => el("li", {}, sourceBadge(source.source_type), el("span", { class: "ref-source", text: asText(source.source) }), source.scope ? el("span", { class: "source-scope", text: asText(source.scope) }) : null)),
          )
        : emptyNote("无：没有可引用的已核实证据"),
      limitations.length ? [el("h4", { text: "限制" }), el("ul", { class: "plain-list" }, limitations.map((text) => el("li", { text })))] : null,
      nextSteps.length ? [el("h4", { text: "建议的下一步" }), el("ol", { class: "plain-list" }, nextSteps.map((text) => el("li", { text })))] : null,
    );
  }

  // ------------------------------------------------------------------------------------------------------------
  // The page
  // ------------------------------------------------------------------------------------------------------------

  const KEY_STORAGE = "superbiz.apiKey";

  function init() {
    const $ = (id) => document.getElementById(id);
    const log = $("chat-log");
    const welcome = $("welcome");
    const form = $("composer");
    const input = $("query");
    const send = $("send");
    const stop = $("stop");
    const newSession = $("new-session");
    const sessionLabel = $("session-label");
    const authBar = $("auth-bar");
    const keyInput = $("api-key");
    const toggleKey = $("toggle-key");
    const counter = $("char-count");

    const state = { sessionId: null, turns: 0, controller: null, current: null, authRequired: false, maxChars: null };

    // --- model info ---
    fetch("/api/info", { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((info) => {
        const label = asText(info.model) || "未知";
        $("model-label").textContent = label;
        $("model-info").title = `当前回答所用的模型：${label}`;
        const offline = info.offline === true || /offline|deterministic|离线/i.test(label);
        $("model-offline").hidden = !offline;
        $("model-info").dataset.offline = String(offline);
        $("model-info").dataset.state = "ready";
        state.maxChars = Number.isInteger(info.max_query_chars) && info.max_query_chars > 0 ? info.max_query_chars : null;
        setAuthRequired(info.auth_required === true);
        updateComposer();
      })
      .catch(() => {
        $("model-label").textContent = "模型信息不可用";
        $("model-info").dataset.state = "error";
      });

    // --- API key ---
    keyInput.value = sessionStorage.getItem(KEY_STORAGE) || "";
    keyInput.addEventListener("input", () => {
      const key = keyInput.value.trim();
      keyInput.classList.remove("invalid");
      $("auth-hint").hidden = true;
      if (key) sessionStorage.setItem(KEY_STORAGE, key);
      else sessionStorage.removeItem(KEY_STORAGE);
    });
    authBar.addEventListener("submit", (event) => {
      event.preventDefault();
      input.focus();
    });
    toggleKey.addEventListener("click", () => {
      const show = keyInput.type === "password";
      keyInput.type = show ? "text" : "password";
      toggleKey.textContent = show ? "隐藏" : "显示";
    });
    function setAuthRequired(required) {
      state.authRequired = required;
      authBar.hidden = !required;
    }

    // --- composer ---
    function updateComposer() {
      const running = state.controller !== null;
      const count = charCount(input.value.trim());
      const over = state.maxChars !== null && count > state.maxChars;
      counter.textContent = state.maxChars !== null ? `${count} / ${state.maxChars}` : "";
      counter.classList.toggle("over", over);
      input.disabled = running;
      send.hidden = running;
      stop.hidden = !running;
      send.disabled = running || count === 0 || over;
      newSession.disabled = running;
      document.body.classList.toggle("is-running", running);
    }
    function autosize() {
      input.style.height = "auto";
      input.style.height = `${Math.min(input.scrollHeight, 220)}px`;
    }
    input.addEventListener("input", () => {
      autosize();
      updateComposer();
    });
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
      event.preventDefault();
      form.requestSubmit();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      ask(input.value.trim());
    });
    stop.addEventListener("click", () => {
      if (state.controller) state.controller.abort();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && state.controller) state.controller.abort();
    });
    for (const example of document.querySelectorAll(".example")) {
      example.addEventListener("click", () => {
        input.value = example.textContent;
        autosize();
        updateComposer();
        input.focus();
      });
    }

    // --- session ---
    function showSession() {
      sessionLabel.textContent = state.sessionId ? `会话 ${state.sessionId.slice(0, 8)}…` : "新会话";
      sessionLabel.title = state.sessionId ? `当前会话：${state.sessionId}` : "尚未开始会话";
      sessionLabel.dataset.sessionId = state.sessionId || "";
    }
    newSession.addEventListener("click", () => {
      if (state.controller) return;
      state.sessionId = null;
      log.replaceChildren(welcome);
      welcome.hidden = false;
      showSession();
      input.focus();
    });

    // Reference / analysis chips: scroll to the target inside this answer and flash it.
    log.addEventListener("click", (event) => {
      const chip = event.target instanceof Element ? event.target.closest("a.chip[data-target]") : null;
      if (!chip) return;
      const target = document.getElementById(chip.dataset.target);
      if (!target) return;
      event.preventDefault();
      target.scrollIntoView({ behavior: "smooth", block: "center" });
      target.classList.remove("flash");
      void target.offsetWidth; // restart the animation
      target.classList.add("flash");
    });

    // --- scrolling: follow new output while the reader is at the bottom ---
    let follow = true;
    window.addEventListener("scroll", () => {
      follow = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 80;
    }, { passive: true });
    const keepBottom = () => {
      if (follow) window.scrollTo(0, document.documentElement.scrollHeight);
    };

    // --- a question ---
    async function ask(query) {
      if (!query || state.controller) return;
      if (state.maxChars !== null && charCount(query) > state.maxChars) return;
      const headers = { "Content-Type": "application/json", Accept: "text/event-stream" };
      if (state.authRequired) {
        const key = keyInput.value.trim();
        if (!key) {
          keyInput.focus();
          keyInput.classList.add("invalid");
          $("auth-hint").hidden = false;
          return;
        }
        headers.Authorization = `Bearer ${key}`;
      }

      welcome.hidden = true;
      state.turns += 1;
      const turn = new Turn(state.turns, query);
      state.current = turn;
      log.append(...turn.nodes);
      follow = true;
      keepBottom();
      input.value = "";
      autosize();
      const controller = new AbortController();
      state.controller = controller;
      updateComposer();

      try {
        const response = await fetch("/api/chat", {
          method: "POST",
          headers,
          body: JSON.stringify({ query, session_id: state.sessionId }),
          signal: controller.signal,
          cache: "no-store",
        });
        if (!response.ok) {
          await showHttpError(turn, response);
        } else if (!(response.headers.get("content-type") || "").includes("text/event-stream") || !response.body) {
          turn.interrupted(`服务器返回了非事件流响应（${response.headers.get("content-type") || "无类型"}）`);
        } else {
          await readEventStream(response.body, (event) => {
            if (turn.finished) return; // nothing after done counts
            let data;
            try {
              data = JSON.parse(event.data);
            } catch {
              turn.interrupted(`无法解析服务器事件「${event.event}」`);
              controller.abort();
              return;
            }
            if (!isObject(data)) data = {};
            if (event.event === "metadata") {
              turn.metadata(data);
              if (turn.sessionId) state.sessionId = turn.sessionId;
              showSession();
            } else if (event.event === "status") turn.status(data);
            else if (event.event === "content") {
              turn.content(data);
              follow = false; // the answer's start (the conclusion) stays in view; its references are below
              turn.body.scrollIntoView({ block: "start" });
            }
            else if (event.event === "failure") turn.failure(data);
            else if (event.event === "done") turn.done(data);
            keepBottom();
          });
          if (!turn.finished) turn.interrupted("事件流在完成前结束，本次回答不完整");
        }
      } catch (error) {
        if (controller.signal.aborted) {
          if (!turn.finished) turn.stopped();
        } else if (!turn.finished) {
          turn.interrupted(error && error.message ? `网络错误（${error.message}）` : "网络错误");
        }
      } finally {
        if (state.controller === controller) state.controller = null;
        state.current = null;
        updateComposer();
        keepBottom();
        input.focus();
      }
    }

    async function showHttpError(turn, response) {
      let code = "";
      let message = response.statusText || "请求失败";
      try {
        const body = await response.json();
        if (isObject(body) && isObject(body.error)) {
          code = asText(body.error.code);
          message = asText(body.error.message) || message;
        }
      } catch {
        // not JSON: keep the status text
      }
      if (response.status === 401) {
        setAuthRequired(true);
        message += keyInput.value.trim() ? "（请检查上方的 API Key）" : "（请在上方填写 API Key）";
        keyInput.focus();
      } else if (code === "SESSION_FORBIDDEN") {
        message += "（可点击「新会话」重新开始）";
      }
      turn.httpError(response.status, code, message);
    }

    showSession();
    updateComposer();
    input.focus();
  }

  if (document.getElementById("chat-log")) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
    else init();
  }
})();
