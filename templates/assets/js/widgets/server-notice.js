// Pages opened from disk (file://): browsers block module scripts, workers and fetch there, so the
// interactive parts cannot run. A classic script (allowed from file://) puts a visible notice
// before every element marked data-needs-server="What cannot run" and hides the forms among them:
// controls that would do nothing are not offered (a chart stays: its numbers are in the page).
// Over http(s) it does nothing.
(function () {
  if (location.protocol !== "file:") return;
  document.querySelectorAll("[data-needs-server]").forEach(function (feature) {
    var notice = document.createElement("p");
    notice.className = "notice server-notice";
    notice.setAttribute("role", "status");
    notice.append(feature.dataset.needsServer + " cannot run from a file opened on disk: open this through a web server: ");
    var command = document.createElement("code");
    command.textContent = "allin serve";
    notice.append(command, " (or any static host).");
    feature.before(notice);
    if (feature.tagName === "FORM") {
      feature.hidden = true;
      feature.style.display = "none"; // whatever display the form's class gives it
      feature.addEventListener("submit", function (event) { event.preventDefault(); });
    }
  });
})();
