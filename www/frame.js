// The page's first frame, drawn into #boot before the app's module has arrived: the site's
// header and the page's heading, with a line saying the interactive page is loading. The texts
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
  if (!embedded) {
    var header = el("header", "site-header");
    var inner = el("div", "site-header-inner");
    var brand = el("span", "brand");
    brand.appendChild(el("span", "brand-name", "Unroll"));
    brand.appendChild(el("span", "brand-tag", T.brand[lang]));
    inner.appendChild(brand);
    header.appendChild(inner);
    boot.appendChild(header);
  }
  var main = el("main", "site-main");
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
