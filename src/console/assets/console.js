// Progressive enhancement only: every page works without this file.
(function () {
  'use strict';
  document.querySelectorAll('button[data-copy-target]').forEach(function (button) {
    var target = document.getElementById(button.getAttribute('data-copy-target'));
    var status = document.getElementById('copy-status');
    if (!target) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var done = function () { if (status) status.textContent = 'Copied to the clipboard.'; };
      var fallback = function () {
        target.focus();
        target.select();
        try { document.execCommand('copy'); done(); } catch (e) { if (status) status.textContent = 'Select the key and copy it.'; }
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(target.value).then(done, fallback);
      } else {
        fallback();
      }
    });
  });
  // A double click must not send twice: the button is disabled once the form is on its way.
  document.querySelectorAll('form[data-once]').forEach(function (form) {
    form.addEventListener('submit', function () {
      form.querySelectorAll('button[type=submit]').forEach(function (b) {
        setTimeout(function () { b.disabled = true; }, 0);
      });
    });
  });
})();
