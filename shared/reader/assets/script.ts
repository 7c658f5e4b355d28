/**
 * The reader's script, served from a long-cached URL (shared/reader/assets.ts) and loaded
 * with `defer`. Everything it does improves a page that already works without it: tabs (clicked, or
 * with the arrow keys, Home and End, one tab stop per tab list as WAI-ARIA's tabs pattern has it),
 * the theme toggle (remembered in localStorage), the current entry of the page tree and of "On this page"
 * kept in view inside its own scrolling list (the page itself never moves for it), the mobile menu (a drawer instead of the
 * page tree after the page: the `js` class hides that tree on narrow screens; it opens below
 * the whole header, announcement included, so the menu button stays there to close it, and
 * Escape or a tap beside it closes it too), copy buttons (in
 * the code's header, beside its language, never over the code), the current heading in "On this page", and
 * instant search (`/` or Ctrl/Cmd-K) over the space's `~search` JSON, the form's own
 * submit staying the no-JavaScript path, and tab stops only on the regions that scroll: the
 * server makes every code block, display math and table focusable (shared/reader/scroll-regions.ts);
 * here those that fit their width stop being tab stops, and are again once they overflow
 * (a narrower window, a web font, a tab shown). Results are built as DOM nodes from text: no
 * HTML from the server is ever parsed here. Its words (copy, no results, the theme toggle's
 * label) are the site's locale's, read from `<body data-messages>` (JSON the layout writes from
 * shared/reader/messages.ts): this script holds no text of its own.
 */
export const READER_JS = `(function(){'use strict';
var d=document,root=d.documentElement;
root.classList.add('js');
var M={};try{M=JSON.parse(d.body.getAttribute('data-messages')||'{}');}catch(e){}
function t(k,q){var s=M[k]||k;return q===undefined?s:s.replace('{query}',function(){return q;});}
function all(s,el){return Array.prototype.slice.call((el||d).querySelectorAll(s));}
function tabsOf(t){return all(':scope>.tab-list>[role=tab]',t.closest('[data-tabs]'));}
function selectTab(t){tabsOf(t).forEach(function(b){var on=b===t;b.setAttribute('aria-selected',String(on));b.tabIndex=on?0:-1;var p=d.getElementById(b.getAttribute('aria-controls'));if(p)p.hidden=!on;});}
all('[data-tabs]>.tab-list>[role=tab]').forEach(function(b){b.tabIndex=b.getAttribute('aria-selected')==='true'?0:-1;});
d.addEventListener('click',function(e){var t=e.target.closest&&e.target.closest('[role=tab]');if(t)selectTab(t);});
d.addEventListener('keydown',function(e){var t=e.target.closest&&e.target.closest('[role=tab]');if(!t)return;var tabs=tabsOf(t),i=tabs.indexOf(t),k=e.key,n=-1;
if(k==='ArrowRight')n=(i+1)%tabs.length;else if(k==='ArrowLeft')n=(i-1+tabs.length)%tabs.length;else if(k==='Home')n=0;else if(k==='End')n=tabs.length-1;
if(n<0)return;e.preventDefault();selectTab(tabs[n]);tabs[n].focus();});
var toggle=d.querySelector('[data-theme-toggle]');
function dark(){var t=root.getAttribute('data-theme');return t?t==='dark':matchMedia('(prefers-color-scheme: dark)').matches;}
function label(){if(toggle){toggle.textContent=dark()?'☀':'☾';toggle.setAttribute('aria-label',dark()?t('switchToLight'):t('switchToDark'));}}
if(toggle){toggle.hidden=false;label();toggle.addEventListener('click',function(){var next=dark()?'light':'dark';root.setAttribute('data-theme',next);try{localStorage.setItem('reader-theme',next);}catch(e){}label();});}
function reveal(box,item){if(!box||!item)return;var b=box.getBoundingClientRect(),r=item.getBoundingClientRect(),bottom=Math.min(b.bottom,innerHeight);
if(r.top<b.top||r.bottom>bottom)box.scrollTop+=r.top-b.top-(bottom-b.top-r.height)/2;}
var menu=d.querySelector('.menu-link'),drawer=d.getElementById('sidebar'),header=d.querySelector('header.top');
function currentPage(){return drawer&&drawer.querySelector(':scope>nav a[aria-current=page]');}
reveal(drawer,currentPage());
function isOpen(){return d.body.classList.contains('menu-open');}
function setMenu(open,refocus){d.body.classList.toggle('menu-open',open);menu.setAttribute('aria-expanded',String(open));
if(open&&drawer&&header)drawer.style.setProperty('--drawer-top',Math.max(0,header.getBoundingClientRect().bottom)+'px');if(open)reveal(drawer,currentPage());if(!open&&refocus)menu.focus();}
if(menu){menu.setAttribute('role','button');menu.setAttribute('aria-expanded','false');menu.addEventListener('click',function(e){e.preventDefault();setMenu(!isOpen());});
d.addEventListener('keydown',function(e){if(e.key==='Escape'&&isOpen())setMenu(false,true);});
d.addEventListener('click',function(e){if(isOpen()&&drawer&&!drawer.contains(e.target)&&!menu.contains(e.target))setMenu(false);});}
all('figure.code').forEach(function(f){var pre=f.querySelector('pre');if(!pre||!navigator.clipboard)return;var b=d.createElement('button');b.type='button';b.className='copy icon-button';b.textContent=t('copy');
b.addEventListener('click',function(){navigator.clipboard.writeText(pre.innerText).then(function(){b.textContent=t('copied');setTimeout(function(){b.textContent=t('copy');},1500);},function(){});});var hd=f.querySelector(':scope>.code-header');(hd||f).appendChild(b);});
var toc=all('aside.toc a');
if(toc.length){var tocBox=d.querySelector('aside.toc'),heads=toc.map(function(a){return d.getElementById(decodeURIComponent(a.hash.slice(1)));});var ticking=false;
function spy(){ticking=false;var cur=0;for(var i=0;i<heads.length;i++){if(heads[i]&&heads[i].getBoundingClientRect().top<innerHeight*0.3)cur=i;}
toc.forEach(function(a,i){if(i===cur)a.setAttribute('aria-current','location');else a.removeAttribute('aria-current');});reveal(tocBox,toc[cur]);}
addEventListener('scroll',function(){if(!ticking){ticking=true;requestAnimationFrame(spy);}},{passive:true});spy();}
var regions=all('pre[tabindex="0"],div.math-block[tabindex="0"],div.table[tabindex="0"]');
function stop(el){if(el.scrollWidth>el.clientWidth+1||el.scrollHeight>el.clientHeight+1)el.setAttribute('tabindex','0');else if(d.activeElement!==el)el.removeAttribute('tabindex');}
if(regions.length&&window.ResizeObserver){var ro=new ResizeObserver(function(es){es.forEach(function(e){stop(e.target);});});regions.forEach(function(el){ro.observe(el);});
if(d.fonts&&d.fonts.ready)d.fonts.ready.then(function(){regions.forEach(stop);});addEventListener('load',function(){regions.forEach(stop);});}
var form=d.querySelector('form.search'),input=form&&form.querySelector('input'),panel=form&&form.querySelector('.search-panel');
if(!form||!input||!panel)return;
d.addEventListener('keydown',function(e){var k=e.key;var typing=/^(INPUT|TEXTAREA|SELECT)$/.test((e.target.tagName||''))||e.target.isContentEditable;
if((k==='k'||k==='K')&&(e.metaKey||e.ctrlKey)||(k==='/'&&!typing)){e.preventDefault();input.focus();input.select();}
else if(k==='Escape'&&!panel.hidden){panel.hidden=true;input.focus();}});
var timer,seq=0;
function mark(el,text,terms){var re=terms.length?new RegExp('('+terms.map(function(t){return t.replace(/[.*+?^$()|[\\]{}\\\\]/g,'\\\\$&');}).join('|')+')','gi'):null;
(re?text.split(re):[text]).forEach(function(part,i){if(!part)return;if(i%2){var m=d.createElement('mark');m.textContent=part;el.appendChild(m);}else el.appendChild(d.createTextNode(part));});}
function show(data,q){panel.textContent='';var terms=q.toLowerCase().split(/[^\\p{L}\\p{N}]+/u).filter(function(t){return t.length>1;});
if(!data.pages.length){var p=d.createElement('p');p.textContent=t('searchNoResultsFor',q);panel.appendChild(p);}
data.pages.forEach(function(pg){var h=d.createElement('h2');h.textContent=pg.breadcrumbs.length?pg.breadcrumbs.join(' › '):pg.title;panel.appendChild(h);
[{title:pg.title,href:pg.href,excerpt:pg.excerpt}].concat(pg.sections).forEach(function(s){var a=d.createElement('a');a.href=s.href;mark(a,s.title,terms);if(s.excerpt){var sp=d.createElement('span');mark(sp,s.excerpt,terms);a.appendChild(sp);}panel.appendChild(a);});});
panel.hidden=false;}
input.addEventListener('input',function(){clearTimeout(timer);var q=input.value.trim();if(!q){panel.hidden=true;return;}
timer=setTimeout(function(){var mine=++seq;fetch(form.getAttribute('data-search')+'?q='+encodeURIComponent(q),{headers:{accept:'application/json'},credentials:'same-origin'}).then(function(r){return r.ok?r.json():null;}).then(function(data){if(data&&mine===seq)show(data,q);},function(){});},120);});
input.addEventListener('keydown',function(e){if(e.key==='ArrowDown'&&!panel.hidden){var first=panel.querySelector('a');if(first){e.preventDefault();first.focus();}}});
panel.addEventListener('keydown',function(e){var links=all('a',panel),i=links.indexOf(d.activeElement);if(e.key==='ArrowDown'&&i<links.length-1){e.preventDefault();links[i+1].focus();}else if(e.key==='ArrowUp'){e.preventDefault();(i>0?links[i-1]:input).focus();}});
d.addEventListener('click',function(e){if(!form.contains(e.target))panel.hidden=true;});
})();`;

/** Runs in `<head>` before the first paint: the visitor's remembered theme, so a dark page never flashes light. */
export const THEME_BOOT_JS = `try{var t=localStorage.getItem('reader-theme');if(t==='light'||t==='dark')document.documentElement.setAttribute('data-theme',t)}catch(e){}`;
