/**
 * The reader's stylesheet, served once per release from a long-cached URL (shared/reader/assets.ts).
 * Colours are custom properties: light by default, dark under `data-theme=dark` or, with no
 * choice made, under prefers-color-scheme (the page's hashed inline style sets the site's
 * own colours, shared/reader/theme.ts). Mobile first up to 52rem: the page comes first, the
 * page tree after it (a drawer when the script runs).
 */

const LIGHT = '--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--subtle:#f6f8fa;--mark:#fff8c5;color-scheme:light';
const DARK = '--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;--subtle:#151b23;--mark:#4d3d00;color-scheme:dark';

export const READER_CSS = `
:root{${LIGHT};--radius:6px;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;--header:3.5rem}
:root[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${DARK}}}
*{box-sizing:border-box}html{scroll-padding-top:calc(var(--header) + 1rem)}
body{margin:0;font:16px/1.65 var(--font);color:var(--fg);background:var(--bg)}
a{color:var(--primary)}img{max-width:100%;height:auto}
.skip-link{position:absolute;left:-100vw;top:0;background:var(--bg);padding:.5rem 1rem;z-index:30}.skip-link:focus{left:0}
.announcement{padding:.5rem 1.5rem;background:var(--primary);color:#fff}.announcement a{color:#fff;font-weight:600}
header.top{position:sticky;top:0;z-index:20;display:flex;gap:.75rem;align-items:center;padding:.5rem 1.25rem;min-height:var(--header);border-bottom:1px solid var(--border);background:var(--bg);flex-wrap:wrap}
header.top .brand{display:flex;gap:.5rem;align-items:center;font-weight:650;font-size:1.1rem;color:inherit;text-decoration:none;margin-right:auto}
header.top .brand img{height:28px;width:auto}header.top nav.links{display:flex;gap:1rem;flex-wrap:wrap}header.top nav.links a{text-decoration:none}
.search{position:relative}.search input{font:inherit;padding:.35rem .7rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--subtle);color:var(--fg);width:16rem;max-width:100%}
.search-panel{position:absolute;right:0;top:calc(100% + .4rem);width:min(34rem,92vw);max-height:70vh;overflow:auto;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 30px #0003;padding:.5rem;z-index:40}
.search-panel[hidden]{display:none}.search-panel h2{font-size:.8rem;margin:.6rem .5rem .2rem;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.search-panel a{display:block;padding:.35rem .5rem;border-radius:var(--radius);text-decoration:none;color:var(--fg)}.search-panel a:hover,.search-panel a:focus,.search-panel a[aria-selected=true]{background:var(--subtle);outline:0}
.search-panel a span{display:block;font-size:.85rem;color:var(--muted)}.search-panel p{margin:.5rem;color:var(--muted)}
mark{background:var(--mark);color:inherit;border-radius:2px}kbd{font:12px var(--mono);border:1px solid var(--border);border-radius:4px;padding:0 .3rem}
.icon-button{font:inherit;background:none;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg);padding:.3rem .55rem;cursor:pointer}
.menu-link{display:none}
nav.sections{display:flex;gap:1.25rem;padding:.25rem 1.25rem;border-bottom:1px solid var(--border);overflow-x:auto;white-space:nowrap}
nav.sections a{text-decoration:none;color:var(--muted);padding:.3rem 0}nav.sections a[aria-current]{color:var(--primary);font-weight:600;border-bottom:2px solid var(--primary)}
nav.sections .group{display:flex;gap:.75rem;align-items:center}nav.sections .group>span{color:var(--muted);font-size:.8rem}
.layout{display:flex;max-width:90rem;margin:0 auto}
aside.sidebar{width:17.5rem;flex:none;padding:1rem .75rem 2rem 1.25rem;border-right:1px solid var(--border);position:sticky;top:var(--header);align-self:flex-start;max-height:calc(100vh - var(--header));overflow:auto}
aside.sidebar ul{list-style:none;margin:0;padding-left:.6rem}aside.sidebar nav>ul{padding-left:0}
aside.sidebar a{display:block;padding:.2rem .5rem;text-decoration:none;color:var(--fg);border-radius:var(--radius)}aside.sidebar a:hover{background:var(--subtle)}
aside.sidebar a[aria-current=page]{background:color-mix(in srgb,var(--primary) 10%,var(--bg));box-shadow:inset 3px 0 var(--primary);font-weight:600}
aside.sidebar summary{list-style:none;display:flex;align-items:center;cursor:pointer}aside.sidebar summary::-webkit-details-marker{display:none}
aside.sidebar summary::after{content:"›";margin-left:auto;padding:0 .4rem;color:var(--muted);transition:transform .15s}aside.sidebar details[open]>summary::after{transform:rotate(90deg)}
aside.sidebar summary a{flex:1}.page-group{margin:1rem .5rem .25rem;font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);font-weight:600}
.spaces ul{padding:0;margin-bottom:1rem}.spaces a[aria-current]{font-weight:600}
main{flex:1;min-width:0;padding:1.5rem 2.5rem 3rem;max-width:52rem}main h1{margin:.25rem 0 .5rem;font-size:2rem;line-height:1.25}
.description{font-size:1.1rem;color:var(--muted);margin-top:0}
.breadcrumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.35rem;margin:0;padding:0;font-size:.85rem;color:var(--muted)}.breadcrumbs li+li::before{content:"/";margin-right:.35rem}.breadcrumbs a{color:var(--muted)}
aside.toc{width:15rem;flex:none;padding:1.5rem 1rem;position:sticky;top:var(--header);align-self:flex-start;max-height:calc(100vh - var(--header));overflow:auto;font-size:.875rem}
aside.toc .toc-title{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:0 0 .5rem}aside.toc ul{list-style:none;margin:0;padding:0}
aside.toc a{display:block;padding:.15rem 0 .15rem .75rem;border-left:2px solid var(--border);color:var(--muted);text-decoration:none}aside.toc .toc-3 a{padding-left:1.5rem}
aside.toc a[aria-current]{color:var(--primary);border-left-color:var(--primary);font-weight:600}
.anchor{margin-left:-1.1rem;width:1.1rem;display:inline-block;opacity:0;text-decoration:none}h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,.anchor:focus{opacity:.6}
.hint{border-left:4px solid var(--info);background:color-mix(in srgb,var(--info) 9%,var(--bg));padding:.6rem 1rem .6rem 2.6rem;border-radius:var(--radius);margin:1rem 0;position:relative}
.hint::before{content:"ℹ";position:absolute;left:.9rem;top:.6rem;font-weight:700;color:var(--info)}.hint>:first-child{margin-top:0}.hint>:last-child{margin-bottom:0}
.hint-success{border-color:var(--success);background:color-mix(in srgb,var(--success) 9%,var(--bg))}.hint-success::before{content:"✓";color:var(--success)}
.hint-warning{border-color:var(--warning);background:color-mix(in srgb,var(--warning) 10%,var(--bg))}.hint-warning::before{content:"!";color:var(--warning)}
.hint-danger{border-color:var(--danger);background:color-mix(in srgb,var(--danger) 9%,var(--bg))}.hint-danger::before{content:"⚠";color:var(--danger)}
.tabs{border:1px solid var(--border);border-radius:var(--radius);margin:1rem 0}.tab-list{display:flex;border-bottom:1px solid var(--border);overflow-x:auto}
.tab-list button{background:none;border:0;padding:.5rem 1rem;cursor:pointer;font:inherit;color:var(--fg)}.tab-list button[aria-selected=true]{border-bottom:2px solid var(--primary);font-weight:600}.tab-panel{padding:.5rem 1rem}
figure{margin:1rem 0}figcaption{font-size:.875rem;color:var(--muted)}
figure.code{border:1px solid var(--border);border-radius:var(--radius);overflow:hidden;position:relative}
.code-header{display:flex;gap:1rem;justify-content:space-between;padding:.3rem .9rem;background:var(--subtle);border-bottom:1px solid var(--border);font-size:.8rem}
.code-title{font-weight:600;color:var(--fg)}.code-lang{margin-left:auto;color:var(--muted);font-family:var(--mono)}
pre{margin:0;padding:.8rem 1rem;overflow:auto;background:var(--subtle);border-radius:var(--radius);font-size:.875rem;line-height:1.55}figure.code pre{border-radius:0}
.shiki{background:var(--bg)}.shiki,.shiki span{color:var(--shiki-light)}:root[data-theme=dark] .shiki,:root[data-theme=dark] .shiki span{color:var(--shiki-dark)}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]) .shiki,:root:not([data-theme=light]) .shiki span{color:var(--shiki-dark)}}
pre.line-numbers code{counter-reset:line}pre.line-numbers .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2rem;margin-right:1rem;text-align:right;color:var(--muted)}
code{font-family:var(--mono);font-size:.9em}:not(pre)>code{background:var(--subtle);padding:.1rem .3rem;border-radius:4px}
.copy{position:absolute;right:.4rem;bottom:.4rem;font:12px var(--font);padding:.2rem .5rem;opacity:.85;background:var(--bg)}
.content-ref,.embed a,.file a{display:flex;gap:1rem;justify-content:space-between;border:1px solid var(--border);border-radius:var(--radius);padding:.75rem 1rem;text-decoration:none}
.embed-host{font-weight:600}.embed-url{color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.table{overflow-x:auto}table{border-collapse:collapse}th,td{border:1px solid var(--border);padding:.35rem .7rem}th{background:var(--subtle)}
.align-left{text-align:left}.align-right{text-align:right}.align-center{text-align:center}
.page-meta{display:flex;flex-wrap:wrap;gap:1rem;margin-top:2.5rem;font-size:.85rem;color:var(--muted)}.page-meta a{color:var(--muted)}
nav.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:1.5rem}
nav.pagination a{flex:1;border:1px solid var(--border);border-radius:var(--radius);padding:.6rem 1rem;text-decoration:none}nav.pagination a[rel=next]{text-align:right}nav.pagination small{color:var(--muted)}
.search-results li{margin-bottom:1rem}.search-results p{margin:.25rem 0;color:var(--muted)}
footer.bottom{padding:2rem 1.5rem;border-top:1px solid var(--border);color:var(--muted);font-size:.9rem;display:flex;gap:2.5rem;flex-wrap:wrap}
footer.bottom ul{list-style:none;padding:0;margin:.4rem 0 0}footer.bottom a{color:var(--muted)}.copyright{flex-basis:100%}
@media (max-width:75rem){aside.toc{display:none}}
@media (max-width:52rem){
.menu-link{display:inline-block;order:-1;text-decoration:none;color:var(--fg)}.search{flex-basis:100%;order:5}.search input{width:100%}header.top nav.links{display:none}
.layout{flex-direction:column}main{padding:1rem 1.1rem 2rem}main h1{font-size:1.6rem}
aside.sidebar{order:2;width:auto;position:static;max-height:none;border-right:0;border-top:1px solid var(--border)}
.menu-open aside.sidebar{order:0;position:fixed;inset:var(--header) 15% 0 0;z-index:25;background:var(--bg);overflow:auto;border-right:1px solid var(--border);box-shadow:0 0 40px #0004}
}
`;
