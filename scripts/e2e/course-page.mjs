// A plain course page for the embed tests and screenshots: the height listener of
// docs/embed.md (each posted `unroll:height` also kept in window.heights), then the snippets.

/** The course page's HTML around `snippets` (a list of HTML strings). */
export function coursePage(snippets) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Course</title>
<style>body { margin: 0; } iframe { display: block; }</style>
<script>
  window.heights = [];
  addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== "unroll:height") return;
    window.heights.push(data.height);
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) frame.style.height = data.height + "px";
    }
  });
</script></head>
<body>${snippets.join("\n")}</body></html>`;
}
