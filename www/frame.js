// The page's first frame, drawn into #boot before the app's module has arrived: the site's
// header, a lesson's breadcrumb or the sequence lab's task switcher, and the page's heading,
// with a line saying the interactive page is loading; each laid out as the app's, so the
// heading stays where it is when the app takes over. The texts
// are the pages' own (www/frame-texts.js, written from the app's catalogues by a test), in the
// language the app will choose: the URL's `lang`, else the browser's. The app removes #boot when
// it mounts (src/lib.rs), in the same task as it draws the page, so the heading never blinks.
// A `lesson` the table does not know (the app will show the index with a notice) gets only the
// loading line: the frame never shows a heading the page will not have.
(function () {
  "use strict";
  var boot = document.getElementById("boot");
  var T = window.UNROLL_FRAME;
  if (!boot || !T) return;
  // The last value of a query key, trimmed and lower-cased ("" when absent), as the app reads it.
  var query = new URLSearchParams(location.search);
  function last(key) {
    var all = query.getAll(key);
    return all.length ? all[all.length - 1].trim().toLowerCase() : "";
  }
  var lang = last("lang");
  if (lang !== "en" && lang !== "zh") {
    lang = (navigator.language || "").toLowerCase().indexOf("zh") === 0 ? "zh" : "en";
  }
  var lesson = last("lesson") || "index";
  var task = last("task");
  var page = T.pages[lesson === "delay" && T.pages["delay/" + task] ? "delay/" + task : lesson];
  var embedded = ["1", "true", "yes", "on"].indexOf(last("embed")) >= 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  document.documentElement.lang = T.html_lang[lang];
  document.title = T.title[lang];
  boot.textContent = "";
  boot.className = "boot-frame";
  boot.removeAttribute("role");
  // The page's links keep the URL's language, as the app's do.
  var langQuery = last("lang") === lang ? "&lang=" + lang : "";
  function link(cls, href, text) {
    var a = el("a", cls, text);
    a.href = href + langQuery;
    return a;
  }
  if (!embedded) {
    // The app's header as it will be (src/app.rs): the mark, the name and tag, the two links
    // and the language switch (inert until the app runs), so it wraps as the app's does at
    // every width and nothing below it moves when the app takes over.
    var header = el("header", "site-header");
    var inner = el("div", "site-header-inner");
    var brand = link("brand", "?v=1");
    var mark = el("span", "brand-mark");
    mark.setAttribute("aria-hidden", "true");
    mark.innerHTML =
      '<svg viewBox="0 0 64 64" width="28" height="28"><rect width="64" height="64" rx="14" fill="currentColor"></rect>' +
      '<g fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"><path d="M14 40c0-10 8-18 18-18s18 8 18 18"></path>' +
      '<path d="M44 34l6 6 6-6"></path></g></svg>';
    brand.appendChild(mark);
    brand.appendChild(el("span", "brand-name", "Unroll"));
    brand.appendChild(el("span", "brand-tag", T.brand[lang]));
    inner.appendChild(brand);
    var nav = el("nav", "site-nav");
    var lessons = link("", "?v=1");
    lessons.appendChild(el("span", lesson === "index" ? "active" : "", T.nav.lessons[lang]));
    nav.appendChild(lessons);
    nav.appendChild(link(lesson === "names" ? "active" : "", "?v=1&lesson=names", T.nav.names[lang]));
    inner.appendChild(nav);
    // The language switch as links to this page in each language: they work before the app
    // runs (a plain navigation), and the app's buttons replace them.
    var langs = el("div", "lang-switch");
    [["en", "EN"], ["zh", "中文"]].forEach(function (pair) {
      var other = new URLSearchParams(location.search);
      other.delete("lang");
      other.append("lang", pair[0]);
      var a = el("a", "lang-btn" + (lang === pair[0] ? " active" : ""), pair[1]);
      a.href = "?" + other.toString();
      if (lang === pair[0]) a.setAttribute("aria-current", "true");
      langs.appendChild(a);
    });
    inner.appendChild(langs);
    header.appendChild(inner);
    boot.appendChild(header);
  }
  var main = el("main", "site-main");
  if (page && page.crumb && !embedded) {
    // A lesson's breadcrumb line (src/lessons/frame.rs).
    var crumbs = el("nav", "lx-crumbs");
    crumbs.appendChild(link("", "?v=1", T.all_lessons[lang]));
    crumbs.appendChild(el("span", "", " / "));
    crumbs.appendChild(el("span", "", page.crumb[lang]));
    main.appendChild(crumbs);
  }
  if (page && (lesson === "delay" || lesson === "generate")) {
    // The sequence lab's task switcher (src/sequence/switcher.rs), as links to each task's page
    // until the app's buttons replace them.
    var tasks = el("div", "mt-switch");
    tasks.appendChild(el("span", "", T.tasks.label[lang]));
    var shown = lesson === "generate" ? "generate" : T.pages["delay/" + task] ? task : "delay";
    T.tasks.keys.forEach(function (key) {
      var to = key === "generate" ? "?v=1&lesson=generate" : "?v=1&lesson=delay" + (key === "delay" ? "" : "&task=" + key);
      var b = link("btn", to, T.tasks[key][lang]);
      if (key === shown) b.setAttribute("aria-current", "page");
      tasks.appendChild(b);
    });
    main.appendChild(tasks);
  }
  var intro = el("header", "page-intro boot-intro");
  if (page) {
    var h1 = el("h1");
    if (page.number) h1.appendChild(el("span", "lx-number", String(page.number)));
    h1.appendChild(document.createTextNode(page.title[lang]));
    intro.appendChild(h1);
  }
  var line = el("p", "lede boot-line", T.loading[lang]);
  line.setAttribute("role", "status");
  intro.appendChild(line);
  intro.appendChild(el("div", "boot-bar"));
  main.appendChild(intro);
  boot.appendChild(main);
})();
