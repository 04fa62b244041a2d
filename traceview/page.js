// Open the row the URL fragment names (#<sub-call id>) and bring it into view.
function openNamed() {
  var id = decodeURIComponent(location.hash.slice(1));
  var row = id && document.getElementById(id);
  if (row && row.tagName === "DETAILS") {
    row.open = true;
    row.scrollIntoView({ block: "center" });
  }
}
window.addEventListener("hashchange", openNamed);
openNamed();
