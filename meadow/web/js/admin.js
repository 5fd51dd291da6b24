// #/admin, for the site's admins only: find people (ban, unban, make or unmake an admin,
// export their data, erase them), hide chat lines, close a table, and read the audit log.
// Every action is the server's /api/admin route, written to the audit log there.

import { api } from "./api.js";
import { html } from "./draw.js";
import { t } from "./i18n.js";
import { notice, problem, redraw, session } from "./session.js";

export async function adminPage() {
  if (!session.me.admin) return { nodes: [html("p", { class: "card" }, [t("admin.only")])] };
  const people = html("div", { class: "admin-people" });
  const find = html("input", { type: "search", name: "find", placeholder: t("admin.find_hint") });
  const banned = html("input", { type: "checkbox", name: "banned" });
  const search = html("form", { class: "admin-find" }, [
    find,
    html("label", { class: "check" }, [banned, t("admin.only_banned")]),
    html("button", { type: "submit" }, [t("admin.find")]),
  ]);
  const listPeople = async () => {
    const query = new URLSearchParams({ find: find.value, banned: banned.checked });
    people.replaceChildren(peopleTable(await api("GET", `/api/admin/people?${query}`)));
  };
  search.addEventListener("submit", (event) => {
    event.preventDefault();
    listPeople().catch((error) => notice(problem(error)));
  });
  await listPeople();
  const sections = [
    html("h1", {}, [t("admin.title")]),
    html("section", { class: "card", id: "admin-people" }, [html("h2", {}, [t("admin.people")]), search, people]),
    html("section", { class: "card", id: "admin-chat" }, [html("h2", {}, [t("admin.chat")]), chatTable(await api("GET", "/api/admin/chat?limit=50"))]),
    closeForm(),
    html("section", { class: "card", id: "admin-audit" }, [html("h2", {}, [t("admin.audit")]), auditTable(await api("GET", "/api/admin/audit?limit=50"))]),
  ];
  return { nodes: sections };
}

// Run an admin action, say it was done, and draw the page afresh.
async function act(method, path, body, doneKey, params) {
  try {
    await api(method, path, body);
    redraw("#/admin");
    notice(t(doneKey, params), "info");
  } catch (error) {
    notice(problem(error));
  }
}

function state(person) {
  const marks = [];
  if (person.admin) marks.push(t("admin.state.admin"));
  if (person.banned_at) marks.push(t("admin.state.banned"));
  if (person.deleted_at) marks.push(t("admin.state.deleted"));
  return marks.join(", ") || "–";
}

function peopleTable(found) {
  if (!found.length) return html("p", { class: "hint" }, [t("admin.nobody")]);
  const button = (key, onclick) => html("button", { type: "button", "data-action": key, onclick }, [t(`admin.${key}`)]);
  const rows = found.map((p) => {
    const path = `/api/admin/people/${p.id}`;
    const actions = p.deleted_at
      ? []
      : [
          p.banned_at
            ? button("unban", () => act("DELETE", `${path}/ban`, undefined, "admin.done.unban", { name: p.name }))
            : button("ban", () => act("PUT", `${path}/ban`, { reason: null }, "admin.done.ban", { name: p.name })),
          p.admin
            ? button("unmake_admin", () => act("DELETE", `${path}/admin`, undefined, "admin.done.unmake_admin", { name: p.name }))
            : button("make_admin", () => act("PUT", `${path}/admin`, undefined, "admin.done.make_admin", { name: p.name })),
          button("export", () => download(p)),
          button("erase", () => {
            if (confirm(t("admin.erase_sure", { name: p.name }))) act("POST", `${path}/erase`, undefined, "admin.done.erase", { name: p.name });
          }),
        ];
    return html("tr", { "data-person": p.name }, [
      html("td", {}, [p.name]),
      html("td", {}, [p.email ? `${p.email}${p.email_confirmed ? "" : " (?)"}` : "–"]),
      html("td", { class: "state" }, [state(p)]),
      html("td", { class: "actions" }, actions),
    ]);
  });
  const head = html("tr", {}, ["name", "email", "state", "actions"].map((k) => html("th", {}, [t(`admin.col.${k}`)])));
  return html("table", { class: "grid" }, [head, ...rows]);
}

async function download(person) {
  try {
    const data = await api("POST", `/api/admin/people/${person.id}/export`);
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
    const link = html("a", { href: URL.createObjectURL(blob), download: `meadow-${person.name}.json` });
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (error) {
    notice(problem(error));
  }
}

function chatTable(lines) {
  if (!lines.length) return html("p", { class: "hint" }, [t("admin.no_chat")]);
  const rows = lines.map((line) =>
    html("tr", { "data-chat-id": line.id, class: line.hidden ? "hidden-line" : "" }, [
      html("td", {}, [html("a", { href: `#/table/${line.table}` }, [String(line.table)])]),
      html("td", {}, [line.name]),
      // Plain text, as everywhere: a line is never markup.
      html("td", { class: "chat-text" }, [line.text]),
      html("td", {}, [
        line.hidden
          ? t("admin.hidden")
          : html("button", { type: "button", "data-action": "hide", onclick: () => act("POST", `/api/admin/chat/${line.id}/hide`, undefined, "admin.done.hide") }, [t("admin.hide")]),
      ]),
    ]),
  );
  const head = html("tr", {}, ["table", "name", "text", "actions"].map((k) => html("th", {}, [t(`admin.col.${k}`)])));
  return html("table", { class: "grid" }, [head, ...rows]);
}

function closeForm() {
  const number = html("input", { type: "number", name: "table", min: 1, required: true });
  const form = html("form", { class: "card", id: "admin-close" }, [
    html("h2", {}, [t("admin.close_title")]),
    html("p", { class: "hint" }, [t("admin.close_explain")]),
    html("label", {}, [t("admin.table_number"), number]),
    html("button", { type: "submit" }, [t("admin.close")]),
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act("POST", `/api/admin/tables/${Number(number.value)}/close`, undefined, "admin.done.close", { n: number.value });
  });
  return form;
}

function auditTable(entries) {
  if (!entries.length) return html("p", { class: "hint" }, [t("admin.no_audit")]);
  const rows = entries.map((e) => {
    const on = [e.person, e.table ? t("admin.on_table", { n: e.table }) : null, e.chat ? t("admin.on_line", { n: e.chat }) : null];
    return html("tr", { "data-audit": e.id }, [
      html("td", {}, [new Date(e.at).toLocaleString(document.documentElement.lang || undefined)]),
      html("td", {}, [e.actor]),
      html("td", {}, [t(`admin.action.${e.action}`)]),
      html("td", {}, [on.filter(Boolean).join(", ") || "–"]),
      html("td", {}, [e.detail || ""]),
    ]);
  });
  const head = html("tr", {}, ["when", "who", "what", "on", "detail"].map((k) => html("th", {}, [t(`admin.col.${k}`)])));
  return html("table", { class: "grid" }, [head, ...rows]);
}
