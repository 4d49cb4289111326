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
  // The send forms' cost counter: message-cost.js is the send's own counting code (the server
  // renders the same line for what was typed; this keeps it current while typing).
  var rules = window.smsMessageCost;
  document.querySelectorAll('textarea[data-cost]').forEach(function (field) {
    var output = document.getElementById(field.getAttribute('data-cost'));
    if (!rules || !output) return;
    var prefix = output.getAttribute('data-prefix') || '';
    var update = function () {
      // A form sends each line break as CRLF: count what the server will receive.
      var cost = rules.messageCost(field.value.replace(/\r?\n/g, '\r\n'));
      output.textContent = prefix + rules.describeCost(cost);
      output.setAttribute('data-encoding', cost.encoding);
      output.setAttribute('data-segments', String(cost.segments));
      output.setAttribute('data-credits', String(cost.credits));
      output.classList.toggle('error', cost.tooLong);
    };
    field.addEventListener('input', update);
    update();
  });
  // The Templates page's live preview: template-preview.js (the campaigns' own rendering and the
  // send's cost rules) is loaded by that page after this file, so it is wired once all have run.
  document.addEventListener('DOMContentLoaded', function () {
    var templates = window.smsTemplatePreview;
    var message = document.querySelector('textarea[data-template-preview]');
    var choice = document.querySelector('select[data-preview-contact]');
    if (!templates || !message || !choice) return;
    var panel = document.getElementById(message.getAttribute('data-template-preview'));
    var chosenField = document.querySelector('input[data-preview-contact-field]');
    if (!panel) return;
    var text = panel.querySelector('[data-preview-text]');
    var problem = panel.querySelector('[data-preview-problem]');
    var forWhom = panel.querySelector('[data-preview-for]');
    var cost = panel.querySelector('.cost');
    var update = function () {
      var option = choice.options[choice.selectedIndex];
      var contact;
      try { contact = JSON.parse(option.getAttribute('data-contact')); } catch (e) { return; }
      if (chosenField) chosenField.value = option.value;
      if (forWhom) forWhom.textContent = option.textContent;
      var p = templates.previewTemplate(message.value.replace(/\r?\n/g, '\r\n'), contact);
      text.textContent = p.text;
      problem.textContent = p.error || (p.missing.length ? 'Missing for this contact, with no fallback: ' + p.missing.join(', ') + ' (a campaign skips it)' : '');
      if (cost) {
        cost.textContent = (cost.getAttribute('data-prefix') || '') + p.costText;
        cost.setAttribute('data-segments', String(p.cost.segments));
        cost.setAttribute('data-credits', String(p.cost.credits));
        cost.classList.toggle('error', p.cost.tooLong);
      }
    };
    message.addEventListener('input', update);
    choice.addEventListener('change', update);
    update();
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
