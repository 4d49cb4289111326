'use strict';
/**
 * The body of the n-th send of a load process: a routable Ghana MTN mobile number (024 + 7
 * digits), different per request unless `to` is given, and a one-time code.
 */
function sendBody(n, to) {
  return JSON.stringify({
    to: to ?? `+23324${String(1000000 + (n % 9000000)).padStart(7, '0')}`,
    sender_id: 'BenchShop',
    message: `Your code is ${n % 1000000}`,
    type: 'transactional',
  });
}

module.exports = { sendBody };
