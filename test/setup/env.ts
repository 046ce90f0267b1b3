process.env.NODE_ENV ??= 'test';
