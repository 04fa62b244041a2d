const urls = [
  "https://user:pw@example.com:8080/a/b/../c?x=1&y=two%20words#frag",
  "http://EXAMPLE.com/%7Efoo/ bar",
  "https://例え.jp/パス?q=検索",
  "file:///tmp/report.md",
];
const out = urls.map((u) => {
  const url = new URL(u);
  return { href: url.href, origin: url.origin, host: url.host, pathname: url.pathname, search: url.search, hash: url.hash, q: url.searchParams.get("q") ?? url.searchParams.get("y") };
});
const params = new URLSearchParams({ query: "café & crème", page: "2" });
params.append("tag", "a b");
params.sort();
const rel = new URL("../img/logo.png?v=3", "https://cdn.example.org/assets/css/site.css");
return { out, params: params.toString(), rel: rel.toString(), canParse: [URL.canParse("nope"), URL.canParse("mailto:a@b.c")] };
