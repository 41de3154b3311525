/** A self-contained API reference page rendered from /api/openapi.json (no CDN assets). */
export function apiDocsPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Diginoor API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#0d0d12;color:#eceaf2}
main{max-width:960px;margin:0 auto;padding:24px}h1{font-size:28px}h2{font-size:18px;margin-top:32px;color:#e8c46a}
details{background:#17161f;border:1px solid #2a2838;border-radius:8px;margin:8px 0;padding:8px 12px}
summary{cursor:pointer;font-family:ui-monospace,monospace}.m{display:inline-block;min-width:64px;font-weight:700}
.get{color:#6fd3a0}.post{color:#7fb4ff}.patch,.put{color:#f0c060}.delete{color:#ff8080}
pre{background:#0a0a0f;padding:12px;border-radius:6px;overflow:auto;font-size:13px}
</style></head><body><main><h1>Diginoor API</h1><p>Machine-readable: <a style="color:#9ab8ff" href="/api/openapi.json">/api/openapi.json</a>. Every error has the shape <code>{"error":{"code","message","details"?}}</code>.</p><div id="ops">Loading…</div></main>
<script>
fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const byTag={};
  for(const [p,ops] of Object.entries(doc.paths))for(const [m,op] of Object.entries(ops)){const t=(op.tags||['other'])[0];(byTag[t]??=[]).push([m,p,op]);}
  const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  document.getElementById('ops').innerHTML=Object.entries(byTag).map(([t,list])=>'<h2>'+esc(t)+'</h2>'+list.map(([m,p,op])=>
    '<details><summary><span class="m '+m+'">'+m.toUpperCase()+'</span> '+esc(p)+' — '+esc(op.summary||'')+'</summary>'+
    (op.parameters&&op.parameters.length?'<h4>Parameters</h4><pre>'+esc(JSON.stringify(op.parameters,null,2))+'</pre>':'')+
    (op.requestBody?'<h4>Body</h4><pre>'+esc(JSON.stringify(op.requestBody.content['application/json'].schema,null,2))+'</pre>':'')+
    '<h4>Responses</h4><pre>'+esc(JSON.stringify(op.responses,null,2))+'</pre></details>').join('')).join('');
});
</script></body></html>`;
}
