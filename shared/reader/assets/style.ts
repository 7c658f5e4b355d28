/**
 * The reader's stylesheet, served once per release from a long-cached URL (shared/reader/assets.ts).
 * Colours are custom properties: light by default, dark under `data-theme=dark` or, with no
 * choice made, under prefers-color-scheme (the page's hashed inline style sets the site's
 * own colours, shared/reader/theme.ts). Mobile first up to 52rem: the page comes first, the
 * page tree after it (a drawer when the script runs). Headings step down in size (h2 > h3 > h4 >
 * text, as GitBook's) and sit nearer the section they open than the one they close. Their `#`
 * anchor shows on hover; on touch screens (no hover) it is always shown, at the heading's end.
 * A page without "On this page" is centred in the room the outline would take (as GitBook's
 * `mx-auto` content), at the same width. On phones (up to 40rem) a table is as wide as its
 * cells' text up to 16rem a column, and scrolls in its own box: wordy columns are not squeezed
 * to a word a line, narrow tables keep their size, and the page never scrolls sideways.
 */

/** A hint's icon: an SVG outline used as a mask, so it takes the hint's colour (data: images are allowed by the page's img-src). */
const icon = (paths: string) => `url("data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2.2' stroke-linecap='round' stroke-linejoin='round'>${paths}</svg>`)}")`;
const HINT_ICONS = {
  info: icon("<circle cx='12' cy='12' r='10'/><path d='M12 16v-5M12 8h.01'/>"),
  success: icon("<circle cx='12' cy='12' r='10'/><path d='m8 12.5 2.8 2.8L16.5 9.5'/>"),
  warning: icon("<path d='M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0zM12 9v4M12 17h.01'/>"),
  danger: icon("<path d='M7.9 2h8.2L22 7.9v8.2L16.1 22H7.9L2 16.1V7.9z'/><path d='m15 9-6 6M9 9l6 6'/>"),
};

const LIGHT = '--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--subtle:#f6f8fa;--mark:#fff8c5;color-scheme:light';
const DARK = '--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;--subtle:#151b23;--mark:#4d3d00;color-scheme:dark';

export const READER_CSS = `
:root{${LIGHT};--radius:6px;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;--header:3.5rem}
:root[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${DARK}}}
*{box-sizing:border-box}html{scroll-padding-top:calc(var(--header) + 1rem)}
body{margin:0;font:16px/1.65 var(--font);color:var(--fg);background:var(--bg)}
a{color:var(--link,var(--primary))}img{max-width:100%;height:auto}
.logo-dark,.image-dark{display:none}:root[data-theme=dark] :is(.logo-dark,.image-dark){display:revert}:root[data-theme=dark] :is(.logo-light:has(+.logo-dark),.image-light:has(+.image-dark)){display:none}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]) :is(.logo-dark,.image-dark){display:revert}:root:not([data-theme=light]) :is(.logo-light:has(+.logo-dark),.image-light:has(+.image-dark)){display:none}}
.skip-link{position:absolute;left:-100vw;top:0;background:var(--bg);padding:.5rem 1rem;z-index:30}.skip-link:focus{left:0}
.announcement{padding:.5rem 1.5rem;background:var(--primary);color:#fff}.announcement a{color:#fff;font-weight:600}
header.top{position:sticky;top:0;z-index:20;display:flex;gap:.75rem;align-items:center;padding:.5rem 1.25rem;min-height:var(--header);border-bottom:1px solid var(--border);background:var(--bg);flex-wrap:wrap}
header.top .brand{display:flex;gap:.5rem;align-items:center;font-weight:650;font-size:1.1rem;color:inherit;text-decoration:none;margin-right:auto}
header.top .brand img{height:28px;width:auto}header.top nav.links{display:flex;gap:1rem;flex-wrap:wrap}header.top nav.links a{text-decoration:none}
.search{position:relative}.search input{font:inherit;padding:.35rem .7rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--subtle);color:var(--fg);width:16rem;max-width:100%}
.search-panel{position:absolute;right:0;top:calc(100% + .4rem);width:min(34rem,92vw);max-height:70vh;overflow:auto;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 30px #0003;padding:.5rem;z-index:40}
.search-panel[hidden]{display:none}.search-panel h2{font-size:.8rem;margin:.6rem .5rem .2rem;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.search-panel a{display:block;padding:.35rem .5rem;border-radius:var(--radius);text-decoration:none;color:var(--fg)}.search-panel a:hover,.search-panel a:focus,.search-panel a[aria-selected=true]{background:var(--subtle)}.search-panel a:focus{outline:2px solid var(--link,var(--primary));outline-offset:-2px}
.search-panel a span{display:block;font-size:.85rem;color:var(--muted)}.search-panel p{margin:.5rem;color:var(--muted)}
mark{background:var(--mark);color:var(--fg);border-radius:2px}kbd{font:12px var(--mono);border:1px solid var(--border);border-radius:4px;padding:0 .3rem}
.icon-button{font:inherit;background:none;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg);padding:.3rem .55rem;cursor:pointer}
.menu-link{display:none}aside.sidebar nav.links{display:none}
nav.sections{display:flex;gap:1.25rem;padding:.25rem 1.25rem;border-bottom:1px solid var(--border);overflow-x:auto;white-space:nowrap}
nav.sections a{text-decoration:none;color:var(--muted);padding:.3rem 0}nav.sections a[aria-current]{color:var(--link,var(--primary));font-weight:600;border-bottom:2px solid var(--primary)}
nav.sections .group{display:flex;gap:.75rem;align-items:center}nav.sections .group>span{color:var(--muted);font-size:.8rem}
.layout{display:flex;max-width:90rem;margin:0 auto}
aside.sidebar{width:17.5rem;flex:none;padding:1rem .75rem 2rem 1.25rem;border-right:1px solid var(--border);position:sticky;top:var(--header);align-self:flex-start;max-height:calc(100vh - var(--header));min-height:calc(100vh - var(--header));overflow:auto}
aside.sidebar ul{list-style:none;margin:0;padding-left:.6rem}aside.sidebar nav>ul{padding-left:0}
aside.sidebar a{display:block;padding:.2rem .5rem;text-decoration:none;color:var(--fg);border-radius:var(--radius)}aside.sidebar a:hover{background:var(--subtle)}
aside.sidebar a[aria-current=page]{background:color-mix(in srgb,var(--primary) 10%,var(--bg));box-shadow:inset 3px 0 var(--primary);font-weight:600}
aside.sidebar li{position:relative}aside.sidebar li>a:has(+details){padding-right:2rem}
aside.sidebar summary{list-style:none;position:absolute;top:0;right:0;width:2rem;height:calc(1lh + .4rem);display:flex;align-items:center;justify-content:center;cursor:pointer;border-radius:var(--radius)}aside.sidebar summary::-webkit-details-marker{display:none}aside.sidebar summary:hover{background:var(--subtle)}
aside.sidebar summary::after{content:"›";color:var(--muted);transition:transform .15s}aside.sidebar details[open]>summary::after{transform:rotate(90deg)}
.page-group{margin:1rem .5rem .25rem;font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);font-weight:600}
.spaces{border-bottom:1px solid var(--border);margin-bottom:.75rem;padding-bottom:.5rem}.spaces ul{padding:0;margin:0}.spaces a[aria-current]{font-weight:600}
main{flex:1;min-width:0;padding:1.5rem 2.5rem 3rem;max-width:52rem;overflow-wrap:break-word}main h1{margin:.25rem 0 .5rem;font-size:2rem;line-height:1.25}
.description{font-size:1.1rem;color:var(--muted);margin-top:0}
.breadcrumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.35rem;margin:0;padding:0;font-size:.85rem;color:var(--muted)}.breadcrumbs li+li::before{content:"/";margin-right:.35rem}.breadcrumbs a{color:var(--muted)}
aside.toc{width:15rem;flex:none;padding:1.5rem 1rem;position:sticky;top:var(--header);align-self:flex-start;max-height:calc(100vh - var(--header));overflow:auto;font-size:.875rem}
aside.toc .toc-title{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:0 0 .5rem}aside.toc ul{list-style:none;margin:0;padding:0}
aside.toc a{display:block;padding:.15rem 0 .15rem .75rem;border-left:2px solid var(--border);color:var(--muted);text-decoration:none}aside.toc .toc-3 a{padding-left:1.5rem}
aside.toc a[aria-current]{color:var(--link,var(--primary));border-left-color:var(--primary);font-weight:600}
.anchor{margin-left:-1.1rem;width:1.1rem;display:inline-block;opacity:0;text-decoration:none}h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,.anchor:focus{opacity:.6}
@media (hover:none){article :is(h2,h3,h4,h5,h6){position:relative;padding-inline-end:2.25rem}.anchor,:hover>.anchor,.anchor:focus{position:absolute;inset-inline-end:0;margin:0;width:2.25rem;text-align:center;opacity:1;color:var(--muted)}}
.hint{--hint:var(--info);--icon:${HINT_ICONS.info};border-left:4px solid var(--hint);background:color-mix(in srgb,var(--hint) 9%,var(--bg));padding:.6rem 1rem .6rem 2.6rem;border-radius:var(--radius);margin:1rem 0;position:relative}
.hint::before{content:"";position:absolute;left:.8rem;top:.9rem;width:1.15rem;height:1.15rem;background:var(--hint);-webkit-mask:var(--icon) center/contain no-repeat;mask:var(--icon) center/contain no-repeat}
.hint>:first-child{margin-top:0}.hint>:last-child{margin-bottom:0}.hint a{color:color-mix(in srgb,var(--link,var(--primary)) 85%,var(--fg))}.hint>:is(h1,h2,h3,h4,h5,h6):first-child{font-size:1rem;font-weight:650;margin:0 0 .25rem}
.hint-success{--hint:var(--success);--icon:${HINT_ICONS.success}}.hint-warning{--hint:var(--warning);--icon:${HINT_ICONS.warning}}.hint-danger{--hint:var(--danger);--icon:${HINT_ICONS.danger}}
.tabs{border:1px solid var(--border);border-radius:var(--radius);margin:1rem 0}.tab-list{display:flex;border-bottom:1px solid var(--border);overflow-x:auto}
.tab-list button{background:none;border:0;padding:.5rem 1rem;cursor:pointer;font:inherit;color:var(--fg)}.tab-list button[aria-selected=true]{border-bottom:2px solid var(--primary);font-weight:600}.tab-panel{padding:.5rem 1rem}
figure{margin:1rem 0}figcaption{font-size:.875rem;color:var(--muted)}
.footnote{font-size:.875rem;color:var(--muted)}.footnote p{margin:.25rem 0}:not(.footnote)+.footnote{border-top:1px solid var(--border);margin-top:2rem;padding-top:.75rem}.footnote-label{font-weight:600}.footnote-ref a{padding:0 .1rem}
main blockquote{margin:1rem 0;padding:0 1rem;border-left:4px solid var(--border);color:var(--muted)}main li>p{margin:.25rem 0}
article :is(h2,h3,h4,h5,h6){line-height:1.3;margin:1.75em 0 .5em}article h2{font-size:1.625rem}article h3{font-size:1.3rem}article h4{font-size:1.125rem}article h5{font-size:1rem}article h6{font-size:.9rem}
ul.tasks{list-style:none;padding-left:1.75rem}ul.tasks>li>input{margin:0 .5rem 0 -1.5rem;vertical-align:-.1em}ul.tasks>li>input+p{display:inline}
.openapi{border:1px solid var(--border);border-radius:var(--radius);margin:1rem 0;padding:0 1rem}.openapi-operation{font-size:1.05rem}.openapi-method{font-weight:700}.openapi-summary{font-weight:600}.openapi-spec,.openapi-type{color:var(--muted)}.openapi h4{margin:1.25rem 0 .5rem;font-size:1rem}.openapi-missing,.openapi-deprecated{color:var(--muted);font-style:italic}
.columns{display:flex;gap:1.5rem;margin:1rem 0}.column{flex:1 1 0;min-width:0}.column>:first-child{margin-top:0}.column>:last-child{margin-bottom:0}
main details{border:1px solid var(--border);border-radius:var(--radius);margin:1rem 0;padding:0 1rem}main details>summary{cursor:pointer;padding:.6rem 0;font-weight:600}main details[open]>summary{border-bottom:1px solid var(--border);margin-bottom:.75rem}
figure.code{border:1px solid var(--border);border-radius:var(--radius);overflow:hidden;position:relative}
.code-header{display:flex;gap:1rem;justify-content:space-between;padding:.3rem .9rem;background:var(--subtle);border-bottom:1px solid var(--border);font-size:.8rem}
.code-title{font-weight:600;color:var(--fg)}.code-lang{margin-left:auto;color:var(--muted);font-family:var(--mono)}
pre{margin:0;padding:.8rem 1rem;overflow:auto;background:var(--subtle);border-radius:var(--radius);font-size:.875rem;line-height:1.55}figure.code pre{border-radius:0}
.shiki{background:var(--bg)}.shiki,.shiki span{color:var(--shiki-light)}:root[data-theme=dark] .shiki,:root[data-theme=dark] .shiki span{color:var(--shiki-dark)}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]) .shiki,:root:not([data-theme=light]) .shiki span{color:var(--shiki-dark)}}
pre.line-numbers code{counter-reset:line}pre.line-numbers .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2rem;margin-right:1rem;text-align:right;color:var(--muted)}
code{font-family:var(--mono);font-size:.9em}:not(pre)>code{background:var(--subtle);padding:.1rem .3rem;border-radius:4px}
.copy{position:absolute;right:.4rem;top:.4rem;font:12px var(--font);padding:.2rem .5rem;opacity:.85;background:var(--bg)}figure.code>pre:first-child{padding-right:4.5rem}
.code-header{align-items:center}.code-header .copy{position:static;margin:-.15rem -.5rem -.15rem auto;padding:.05rem .5rem}.code-lang+.copy{margin-left:0}
.content-ref,.embed a,.file a{display:flex;gap:1rem;justify-content:space-between;padding:.75rem 1rem;text-decoration:none}
a.button{display:inline-block;margin:.15rem 0;padding:.4rem .9rem;border:1px solid var(--link,var(--primary));border-radius:var(--radius);font-weight:600;text-decoration:none}a.button.primary{background:var(--link,var(--primary));color:var(--bg)}a.button.secondary{background:transparent;color:var(--link,var(--primary))}a.button:hover{filter:brightness(1.08)}
.content-ref,.card,.embed a,.file a{border:1px solid var(--border);border-radius:var(--radius);transition:border-color .15s}.content-ref:hover,.card:hover{border-color:var(--primary)}
.cards{list-style:none;padding:0;margin:1rem 0;display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:1rem}.cards-large{grid-template-columns:repeat(auto-fill,minmax(20rem,1fr))}
.card{position:relative;overflow:hidden;display:flex;flex-direction:column;padding-bottom:.75rem}.card>*{margin:.75rem 1rem 0}.card>.card-cover{margin:0}.card p{margin:0}
.card-cover img{display:block;width:100%;height:auto;aspect-ratio:16/9;object-fit:cover}.card-title{font-weight:650}
.card-link{color:var(--fg);text-decoration:none}.card-link::after{content:"";position:absolute;inset:0}.card a:not(.card-link){position:relative;z-index:1}
.math-block{margin:1rem 0;overflow-x:auto;overflow-y:hidden}math{font-size:1.1em}.math-error{border:1px dashed var(--danger)}
.integration-block{margin:1rem 0}.integration-fallback{color:var(--muted);font-size:.9rem;border:1px dashed var(--border);border-radius:var(--radius);padding:.5rem .75rem}
.contentkit-hstack{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.contentkit-vstack{display:flex;flex-direction:column;gap:.5rem}
.contentkit-card{border:1px solid var(--border);border-radius:var(--radius);padding:.75rem 1rem;margin:.5rem 0}.contentkit-card-title{margin:0 0 .25rem}.contentkit-card-hint,.contentkit-hint{color:var(--muted)}
.integration-block span.button{display:inline-block;margin:.15rem 0;padding:.4rem .9rem;border:1px solid var(--border);border-radius:var(--radius);color:var(--muted)}
.contentkit-webframe iframe{border:0;width:100%;display:block}
.embed-host{font-weight:600}.embed-url{color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.table{overflow-x:auto;margin:1rem 0}table{border-collapse:collapse}th,td{border:1px solid var(--border);padding:.35rem .7rem}th{background:var(--subtle);text-align:left}
@media (max-width:40rem){.table>table{width:max-content}.table :is(th,td){max-width:16rem}}
.align-left{text-align:left}.align-right{text-align:right}.align-center{text-align:center}
.page-meta{display:flex;flex-wrap:wrap;gap:1rem;margin-top:2.5rem;font-size:.85rem;color:var(--muted)}.page-meta a{color:var(--muted)}
nav.pagination{display:grid;grid-template-columns:1fr 1fr;gap:1rem;margin-top:1.5rem}
nav.pagination a{border:1px solid var(--border);border-radius:var(--radius);padding:.6rem 1rem;text-decoration:none}nav.pagination a[rel=next]{text-align:right}nav.pagination small{color:var(--muted)}
.search-results li{margin-bottom:1rem}.search-results p{margin:.25rem 0;color:var(--muted)}
footer.bottom{padding:2rem 1.5rem;border-top:1px solid var(--border);color:var(--muted);font-size:.9rem;display:flex;gap:2.5rem;flex-wrap:wrap}
footer.bottom ul{list-style:none;padding:0;margin:.4rem 0 0}footer.bottom a{color:var(--muted)}.copyright{flex-basis:100%}
@media (width>52rem){.layout:not(:has(>aside.toc))>main{margin-inline:auto}}
@media (max-width:75rem){aside.toc{display:none}}
@media print{header.top,nav.sections,aside.sidebar,aside.toc,.announcement,.skip-link,nav.pagination,.page-actions,.copy,.anchor,footer.bottom{display:none!important}main{max-width:none;padding:0}pre{white-space:pre-wrap}}
@media (max-width:52rem){
.menu-link{display:inline-block;order:-1;text-decoration:none;color:var(--fg)}.search{flex-basis:100%;order:5}.search input{width:100%}header.top nav.links{display:none}
aside.sidebar nav.links{display:flex;flex-direction:column;margin-bottom:1rem;padding-bottom:.75rem;border-bottom:1px solid var(--border)}
.layout{flex-direction:column}main{padding:1rem 1.1rem 2rem}.columns{flex-direction:column;gap:.75rem}main h1{font-size:1.6rem}article h2{font-size:1.375rem}article h3{font-size:1.2rem}article h4{font-size:1.075rem}
aside.sidebar{order:2;width:auto;align-self:stretch;position:static;max-height:none;min-height:0;border-right:0;border-top:1px solid var(--border)}.js body:not(.menu-open) aside.sidebar{display:none}
body.menu-open{overflow:hidden}.menu-open aside.sidebar{order:0;position:fixed;inset:var(--drawer-top,var(--header)) 15% 0 0;z-index:25;background:var(--bg);overflow:auto;border-right:1px solid var(--border);box-shadow:0 0 40px #0004}
}
`;
