// A person's own account: a new password by e-mail (asked for on the log-in page, set on the
// page the mailed link opens), confirming an e-mail address, and in the profile: the
// address's state, a new password, and deleting the account.

import { api } from "./api.js";
import { html } from "./draw.js";
import { t } from "./i18n.js";
import { go, notice, problem, session, signedIn } from "./session.js";

function passwordInput(name, autocomplete) {
  return html("input", { name, type: "password", autocomplete, required: true, minlength: name === "current" || name === "password" ? null : 8 });
}

// #/forgot: the address to send a link to. The answer is the same whether or not an account
// has it, so the page says no more than the server does.
export function forgotPage() {
  const email = html("input", { type: "email", name: "email", autocomplete: "email", required: true });
  const said = html("p", { class: "hint", "data-sent": "no" }, [t("reset.explain")]);
  const form = html("form", { class: "card narrow", id: "forgot" }, [
    html("h1", {}, [t("reset.title")]),
    html("label", {}, [t("notices.email"), email]),
    html("button", { type: "submit", class: "primary" }, [t("reset.send")]),
    said,
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("POST", "/api/accounts/reset", { email: email.value });
      said.textContent = t("reset.sent");
      said.dataset.sent = "yes";
    } catch (error) {
      notice(problem(error));
    }
  });
  return { nodes: [form] };
}

// #/reset/<token>: the page the mailed link opens. A new password, and the person is in.
export function resetPage(token) {
  const password = passwordInput("new", "new-password");
  const form = html("form", { class: "card narrow", id: "reset" }, [
    html("h1", {}, [t("reset.new_title")]),
    html("label", {}, [t("password.new"), password]),
    html("button", { type: "submit", class: "primary" }, [t("reset.set")]),
    html("p", { class: "hint" }, [t("reset.all_signed_out")]),
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await signedIn(await api("POST", "/api/accounts/reset/finish", { token, password: password.value }));
      go("#/");
      notice(t("reset.done"), "info");
    } catch (error) {
      notice(problem(error));
    }
  });
  return { nodes: [form] };
}

// #/confirm/<token>: the page the link mailed to a new address opens. It confirms at once.
export async function confirmPage(token) {
  let text;
  try {
    const confirmed = await api("POST", "/api/accounts/email/confirm", { token });
    text = t("email.confirmed", { email: confirmed.email });
    if (session.me) session.me = await api("GET", "/api/accounts/me");
  } catch (error) {
    text = problem(error);
  }
  const card = html("section", { class: "card narrow", id: "confirmed" }, [
    html("h1", {}, [t("email.title")]),
    html("p", {}, [text]),
    html("p", {}, [html("a", { href: session.me ? "#/profile" : "#/login" }, [t(session.me ? "nav.profile" : "nav.login")])]),
  ]);
  return { nodes: [card] };
}

// #/undo-address/<token>: the page the link mailed to a confirmed address opens when the
// address was changed or removed. It asks first: taking the change back signs the account
// out everywhere, which a mail scanner opening the link must not do.
export function undoAddressPage(token) {
  const said = html("p", {}, [t("address_undo.explain")]);
  const button = html("button", { type: "submit", class: "primary" }, [t("address_undo.button")]);
  const form = html("form", { class: "card narrow", id: "undo-address" }, [html("h1", {}, [t("address_undo.title")]), said, button]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const kept = await api("POST", "/api/accounts/email/undo", { token });
      if (session.me) await signedIn(null); // this browser was signed out too
      said.textContent = t("address_undo.done", { email: kept.email });
      said.dataset.undone = "yes";
      button.replaceWith(html("p", {}, [html("a", { href: "#/forgot" }, [t("reset.forgot")])]));
    } catch (error) {
      notice(problem(error));
    }
  });
  return { nodes: [form] };
}

// Under the address in the profile: confirmed or not, and a new one waiting for its link.
export function addressState() {
  const me = session.me;
  const lines = [];
  if (me.email) {
    lines.push(html("p", { class: me.email_confirmed ? "hint confirmed" : "hint unconfirmed" }, [
      t(me.email_confirmed ? "email.is_confirmed" : "email.not_confirmed", { email: me.email }),
    ]));
  }
  if (me.pending_email) {
    const again = html("button", { type: "button", class: "link", onclick: resend }, [t("email.resend")]);
    lines.push(html("p", { class: "hint pending" }, [t("email.pending", { email: me.pending_email }), " ", again]));
  }
  return html("div", { class: "address-state" }, lines);
}

async function resend() {
  try {
    await api("POST", "/api/accounts/me/email/resend");
    notice(t("email.sent", { email: session.me.pending_email }), "info");
  } catch (error) {
    notice(problem(error));
  }
}

// After the address was saved: say where a link went, if one did.
export function addressSaved(before) {
  const pending = session.me.pending_email;
  if (pending && pending !== before) return t("email.sent", { email: pending });
  return t("notices.saved");
}

// The profile's part for accounts (a guest has no password): a new password, and deleting.
export function accountSections() {
  if (session.me.guest) return [];
  return [passwordForm(), deleteForm()];
}

function passwordForm() {
  const current = passwordInput("current", "current-password");
  const next = passwordInput("new", "new-password");
  const form = html("form", { class: "card", id: "new-password" }, [
    html("h2", {}, [t("password.title")]),
    html("label", {}, [t("password.current"), current]),
    html("label", {}, [t("password.new"), next]),
    html("button", { type: "submit" }, [t("password.change")]),
    html("p", { class: "hint" }, [t("password.others_signed_out")]),
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("PUT", "/api/accounts/me/password", { current: current.value, new: next.value });
      form.reset();
      notice(t("password.changed"), "info");
    } catch (error) {
      notice(problem(error));
    }
  });
  return form;
}

function deleteForm() {
  const password = passwordInput("password", "current-password");
  const sure = html("input", { type: "checkbox", name: "sure", required: true });
  const form = html("form", { class: "card danger", id: "delete-account" }, [
    html("h2", {}, [t("delete.title")]),
    html("p", {}, [t("delete.explain")]),
    html("label", {}, [t("account.password"), password]),
    html("label", { class: "check" }, [sure, t("delete.sure")]),
    html("button", { type: "submit" }, [t("delete.button")]),
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("POST", "/api/accounts/me/delete", { password: password.value });
      await signedIn(null);
      go("#/login");
      notice(t("delete.done"), "info");
    } catch (error) {
      notice(problem(error));
    }
  });
  return form;
}
